import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api, sandbox } = useSandbox()

async function freshToken(session?: string): Promise<string> {
  const response = await api.request<{ accessToken: string }>('/auth/refresh?dryRun=true', {
    body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
    ...(session ? { session } : {}),
  })
  expect(response.status).toBe(200)
  return response.body.accessToken
}

const accountStatus = (token: string, session?: string) =>
  api.request('/payprov/account-status', {
    authorization: `Bearer ${token}`,
    ...(session ? { session } : {}),
  })

describe('the session clock', () => {
  it('starts on real time', async () => {
    const response = await api.request('/__sandbox/clock')
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ offsetSeconds: 0, real: true })
    expect(Math.abs(Date.parse(response.body.now) - Date.now())).toBeLessThan(5_000)
  })

  it('expires an access token after advancing 901 seconds', async () => {
    const token = await freshToken()
    expect((await accountStatus(token)).status).toBe(200)

    const advanced = await api.request('/__sandbox/clock', { body: { advanceSeconds: 901 } })
    expect(advanced.status).toBe(200)
    expect(advanced.body).toMatchObject({ offsetSeconds: 901, real: false })

    const expired = await accountStatus(token)
    expect(expired.status).toBe(401)
    expect(expired.body).toEqual({ message: 'Access token expired', code: 'UNAUTHORIZED' })
  })

  it('keeps a token valid after advancing 899 seconds', async () => {
    const token = await freshToken()
    await api.request('/__sandbox/clock', { body: { advanceSeconds: 899 } })
    expect((await accountStatus(token)).status).toBe(200)
  })

  it('dates the writes of operations and the journal', async () => {
    await api.request('/__sandbox/clock', { body: { now: '2030-01-02T03:04:05Z' } })
    const before = (await sandbox.store()).notifications.all().length
    const declined = await api.request(`/bookings/${anchors.bookings.pending}/decline`, {
      authorization: `Bearer ${await freshToken()}`,
      body: {},
    })
    expect(declined.status).toBe(201)
    const notifications = (await sandbox.store()).notifications.all()
    expect(notifications.length).toBe(before + 1)
    expect(notifications.at(-1)?.createdAt.slice(0, 10)).toBe('2030-01-02')
    expect(sandbox.journal.list().at(-1)?.time.slice(0, 10)).toBe('2030-01-02')
  })

  it('is per session', async () => {
    await api.request('/__sandbox/clock', { body: { advanceSeconds: 901 }, session: 'clock-a' })
    expect((await api.request('/__sandbox/clock', { session: 'clock-a' })).body.real).toBe(false)
    expect((await api.request('/__sandbox/clock')).body.real).toBe(true)
    const token = await freshToken()
    expect((await accountStatus(token)).status).toBe(200)
  })

  it('goes back to real time on reset and on DELETE', async () => {
    await api.request('/__sandbox/clock', { body: { advanceSeconds: 3600 } })
    await api.request('/__sandbox/reset', { body: {} })
    expect((await api.request('/__sandbox/clock')).body).toMatchObject({ real: true })
    await api.request('/__sandbox/clock', { body: { advanceSeconds: 3600 } })
    const back = await api.request('/__sandbox/clock', { method: 'DELETE' })
    expect(back.body).toMatchObject({ real: true, offsetSeconds: 0 })
  })

  it.each([
    [{}, 'body: give exactly one of now, advanceSeconds'],
    [{ now: 'yesterday' }, 'now must be a valid ISO 8601 date string'],
    [{ advanceSeconds: 1, now: '2030-01-01T00:00:00Z' }, 'give exactly one of now, advanceSeconds'],
    [{ advanceSeconds: 1, speed: 2 }, 'property speed should not exist'],
  ])('refuses %j with a 400', async (body, detail) => {
    const response = await api.request('/__sandbox/clock', { body })
    expect(response.status).toBe(400)
    expect(response.body.details.join('\n')).toContain(detail)
    expect((await api.request('/__sandbox/clock')).body.real).toBe(true)
  })
})
