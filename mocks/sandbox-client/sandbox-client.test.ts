import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'
import { createSandbox } from '../sandbox.ts'
import { createSandboxClient, SESSION_HEADER, signIn } from './sandbox-client.ts'

interface Follow {
  followerId: string
  followeeId: string
}
const hostFollowsGuest = (follows: Follow[]) =>
  follows.some((follow) => follow.followerId === 'usr_host' && follow.followeeId === 'usr_guest')

describe('signIn, in process', () => {
  it('gives an access token the sandbox accepts, by key or by persona', async () => {
    const sandbox = createSandbox()
    const request = (token?: string) =>
      sandbox.handle({
        method: 'GET',
        url: '/payprov/account-status',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      })
    expect((await request()).status).toBe(401)
    expect((await request(await signIn(sandbox, 'host'))).status).toBe(200)
    const host = sandbox.personas.find((persona) => persona.key === 'host')!
    expect((await request(await signIn(sandbox, host))).status).toBe(200)
  })

  it('names the persona when it cannot sign in', async () => {
    const sandbox = createSandbox()
    await expect(signIn(sandbox, 'nobody' as 'host')).rejects.toThrow(
      'Failed to sign in as "nobody": no such persona',
    )
    await expect(signIn(sandbox, { key: 'host', refreshToken: 'rt_host.wrong' })).rejects.toThrow(
      /^Failed to sign in as "host": 401: /,
    )
  })
})

describe('createSandboxClient, over fetch', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('signs in with the personas the runtime lists, and parses the reply', async () => {
    const client = createSandboxClient({ baseUrl: server.url })
    const refused = await client.request('/payprov/account-status')
    expect(refused.status).toBe(401)
    const reply = await client.request<{ accountId?: unknown }>('/payprov/account-status', {
      as: 'host',
    })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
    expect(reply.body).toEqual(JSON.parse(reply.text))
    await expect(client.accessToken('nobody')).rejects.toThrow(
      'Failed to sign in as "nobody": no such persona',
    )
  })

  it('keeps a body that is not JSON as text, and an empty one as undefined', async () => {
    const client = createSandboxClient({ baseUrl: server.url })
    const page = await client.request<string>('/__sandbox/')
    expect(page.status).toBe(200)
    expect(page.body).toBe(page.text)
    expect(page.text).toMatch(/<html/i)
    const options = await client.request('/users/usr_guest/follow', { method: 'OPTIONS' })
    expect(options.status).toBe(204)
    expect(options.body).toBeUndefined()
  })

  it('writes in its session, reads its collections and resets it', async () => {
    const client = createSandboxClient({ baseUrl: server.url, session: 'client-a' })
    const followed = await client.request('/users/usr_guest/follow', { as: 'host', body: {} })
    expect(followed.status).toBe(201)
    expect(hostFollowsGuest(await client.collection<Follow>('follows'))).toBe(true)
    expect(hostFollowsGuest(await client.collection<Follow>('follows', 'client-b'))).toBe(false)
    expect(hostFollowsGuest(await server.collection<Follow>('follows'))).toBe(false)
    await client.reset()
    expect(hostFollowsGuest(await client.collection<Follow>('follows'))).toBe(false)
  })

  it('sends a prepared request as is, session header included', async () => {
    const client = createSandboxClient({ baseUrl: server.url })
    const token = await client.accessToken('host', 'client-c')
    const followed = await client.send({
      url: '/users/usr_guest/follow',
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        [SESSION_HEADER]: 'client-c',
      },
      body: '{}',
    })
    expect(followed.status).toBe(201)
    expect(hostFollowsGuest(await client.collection<Follow>('follows', 'client-c'))).toBe(true)
    expect(hostFollowsGuest(await client.collection<Follow>('follows'))).toBe(false)
  })
})
