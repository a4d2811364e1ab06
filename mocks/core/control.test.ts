import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds, personas } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()
const decline = (id: string) => `/bookings/${id}/decline`

describe('control API in the Node runtime', () => {
  it('lists the personas with their credentials', async () => {
    const response = await api.request('/__sandbox/personas')
    expect(response.status).toBe(200)
    expect(response.body.map((p: { key: string }) => p.key)).toEqual([
      'admin',
      'host',
      'host-restricted',
      'host-pending',
      'guest',
      'applicant',
    ])
    expect(response.body[1]).toEqual({
      key: 'host',
      publicId: personaIds.host,
      displayName: 'Hugo Host',
      email: 'host@sandbox.test',
      roles: ['host'],
      refreshToken: personas[1]!.refreshToken,
      idpCode: 'idp_host',
    })
  })

  it('resets to a scenario: empty has personas but no bookings', async () => {
    const reset = await api.request('/__sandbox/reset', { body: { scenario: 'empty' } })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ session: 'default', scenario: 'empty', seed: expect.any(Number) })
    expect(await api.collection('bookings')).toEqual([])
    expect((await api.collection('users')).length).toBe(6)
  })

  it('rejects an unknown scenario and keeps the state', async () => {
    const response = await api.request('/__sandbox/reset', { body: { scenario: 'nope' } })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['scenario must be one of: default, empty, large'])
    expect((await api.collection('bookings')).length).toBeGreaterThan(0)
  })

  it('undoes writes on reset', async () => {
    await api.request(decline(anchors.bookings.pending), { as: 'host', body: {} })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('declined')
    await api.request('/__sandbox/reset', { body: {} })
    expect((await sandbox.store()).bookings.get(anchors.bookings.pending)?.status).toBe('pending')
  })

  it('returns 400, not a crash, for a malformed collection name', async () => {
    const response = await sandbox.handle({
      method: 'GET',
      url: '/__sandbox/collections/%ZZ',
      headers: {},
    })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('starts over with resetAll: other sessions dropped, default back to the start', async () => {
    await api.request('/__sandbox/reset', { body: { scenario: 'empty' } })
    await api.request(decline(anchors.bookings.pending), { as: 'host', body: {}, session: 'w-9' })
    expect(sandbox.sessionIds()).toContain('w-9')
    expect(await sandbox.resetAll()).toEqual({
      session: 'default',
      scenario: 'default',
      seed: sandbox.settings.seed,
    })
    expect(sandbox.sessionIds()).toEqual(['default'])
    expect((await sandbox.store('w-9')).bookings.get(anchors.bookings.pending)?.status).toBe(
      'pending',
    )
  })

  it('returns 404 for an unknown collection', async () => {
    const response = await api.request('/__sandbox/collections/widgets')
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('NOT_FOUND')
  })

  it("keeps each session's writes to itself", async () => {
    await api.request(decline(anchors.bookings.pending), {
      as: 'host',
      body: {},
      session: 'worker-1',
    })
    const status = async (session?: string) =>
      (await api.collection('bookings', session)).find((b) => b.id === anchors.bookings.pending)
        .status
    expect(await status('worker-1')).toBe('declined')
    expect(await status('worker-2')).toBe('pending')
    expect(await status()).toBe('pending')
  })

  it('journals requests per session and clears the journal', async () => {
    await api.request('/payprov/account-status', { as: 'host', session: 'journal-a' })
    const mine = await api.request('/__sandbox/requests', { session: 'journal-a' })
    expect(mine.body.map((e: { path: string }) => e.path)).toEqual([
      '/auth/refresh',
      '/payprov/account-status',
    ])
    expect(mine.body[1]).toMatchObject({
      method: 'GET',
      status: 200,
      session: 'journal-a',
      dryRun: null,
    })
    expect(
      (await api.request('/__sandbox/requests', { method: 'DELETE', session: 'journal-a' })).status,
    ).toBe(204)
    expect((await api.request('/__sandbox/requests', { session: 'journal-a' })).body).toEqual([])
  })
})
