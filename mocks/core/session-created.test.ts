import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'
import { SESSION_CREATED_HEADER } from './journal.ts'

function health(sandbox: ReturnType<typeof createSandbox>, session: string) {
  return sandbox.handle({
    method: 'GET',
    url: '/payprov/account-status',
    headers: { 'x-sandbox-session': session },
  })
}

describe('a session created by a request', () => {
  it('is marked on that request only, with a header and in the journal', async () => {
    const sandbox = createSandbox()
    const first = await health(sandbox, 'qa-1')
    const second = await health(sandbox, 'qa-1')
    expect(first.headers[SESSION_CREATED_HEADER]).toBe('true')
    expect(second.headers[SESSION_CREATED_HEADER]).toBeUndefined()
    const entries = sandbox.journal.list('qa-1')
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatchObject({ session: 'qa-1', status: 401, sessionCreated: true })
    expect(entries[1]).not.toHaveProperty('sessionCreated')
  })

  it('is marked again when the session comes back after eviction', async () => {
    const sandbox = createSandbox({ maxSessions: 2 })
    await health(sandbox, 'a')
    await health(sandbox, 'b')
    await health(sandbox, 'c') // evicts "a", the least recently used
    expect(sandbox.sessionIds()).not.toContain('a')
    const back = await health(sandbox, 'a')
    expect(back.headers[SESSION_CREATED_HEADER]).toBe('true')
    expect(sandbox.journal.list('a').at(-1)).toMatchObject({ sessionCreated: true })
  })

  it('is marked again after the session was dropped', async () => {
    const sandbox = createSandbox()
    await health(sandbox, 'qa-2')
    sandbox.dropSession('qa-2')
    expect((await health(sandbox, 'qa-2')).headers[SESSION_CREATED_HEADER]).toBe('true')
  })

  it('is marked when a control call creates it', async () => {
    const sandbox = createSandbox()
    const read = () =>
      sandbox.handle({
        method: 'GET',
        url: '/__sandbox/collections/bookings',
        headers: { 'x-sandbox-session': 'qa-3' },
      })
    expect((await read()).headers[SESSION_CREATED_HEADER]).toBe('true')
    expect((await read()).headers[SESSION_CREATED_HEADER]).toBeUndefined()
    expect(sandbox.journal.list('qa-3')).toEqual([
      expect.objectContaining({ path: '/__sandbox/collections/bookings', sessionCreated: true }),
    ])
  })

  it('is not marked on an unknown route, which creates nothing', async () => {
    const sandbox = createSandbox()
    const response = await sandbox.handle({
      method: 'GET',
      url: '/nowhere',
      headers: { 'x-sandbox-session': 'qa-4' },
    })
    expect(response.headers[SESSION_CREATED_HEADER]).toBeUndefined()
    expect(sandbox.sessionIds()).not.toContain('qa-4')
  })
})
