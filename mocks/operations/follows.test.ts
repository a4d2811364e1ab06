import { describe, expect, it } from 'vitest'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const path = (id: string, query = '') => `/users/${id}/follow${query}`
const edge = `${personaIds.host}:${personaIds.guest}`

describe('POST /users/{targetPublicId}/follow', () => {
  it('creates the follow edge and notifies the followee', async () => {
    const before = new Set((await api.collection('notifications')).map((n) => n.id))
    const response = await api.request(path(personaIds.guest), { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    const follows = await api.collection('follows')
    expect(follows.find((f) => f.id === edge)).toMatchObject({
      followerId: personaIds.host,
      followeeId: personaIds.guest,
    })
    const added = (await api.collection('notifications')).filter((n) => !before.has(n.id))
    expect(added).toEqual([
      expect.objectContaining({
        userId: personaIds.guest,
        kind: 'user.followed',
        body: 'Hugo Host started following you.',
      }),
    ])
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const response = await api.request(path(personaIds.guest, '?dryRun=true'), {
      as: 'host',
      body: {},
    })
    expect(response.status).toBe(201)
    expect((await api.collection('follows')).some((f) => f.id === edge)).toBe(false)
  })

  it('returns 409 when already following', async () => {
    const response = await api.request(path(personaIds.host), { as: 'guest', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it('returns 400 for a self-follow', async () => {
    const response = await api.request(path(personaIds.host), { as: 'host', body: {} })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['targetPublicId must not be the caller'])
  })

  it('returns 400 for an unexpected body field', async () => {
    const response = await api.request(path(personaIds.guest), {
      as: 'host',
      body: { notify: true },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['property notify should not exist'])
  })

  it('returns 404 for an unknown user', async () => {
    expect((await api.request(path('usr_nobody'), { as: 'host', body: {} })).status).toBe(404)
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(personaIds.guest), { body: {} })).status).toBe(401)
  })
})
