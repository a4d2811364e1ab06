/**
 * A write's journal entry says what it changed (records created, changed field by field,
 * deleted), bounded; the answer an app gets is the reference's, and only a request that asks
 * (`x-sandbox-changes`) gets the summary in a header, a reset's too. The journal marks what
 * the sandbox's own tools sent (`x-sandbox-client`) and `?app=true` leaves it out; each fault
 * rule says how often it fired.
 */
import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { getPersona } from '../../fixtures/personas.ts'
import { createSandbox, type Sandbox } from '../sandbox.ts'
import { decodeChanges } from './change-summary.ts'

const json = { 'content-type': 'application/json' }

async function send(sandbox: Sandbox, method: string, url: string, options = {} as Options) {
  const { body, headers = {} } = options
  return sandbox.handle({
    method,
    url,
    headers: { ...json, ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  })
}
interface Options {
  body?: unknown
  headers?: Record<string, string>
}

async function tokenOf(sandbox: Sandbox, persona: string, headers: Record<string, string> = {}) {
  const refreshToken = getPersona(persona as never).refreshToken
  const answer = await send(sandbox, 'POST', '/auth/refresh?dryRun=true', {
    body: { refreshToken },
    headers,
  })
  return `Bearer ${(answer.body as { accessToken: string }).accessToken}`
}

const decline = `/bookings/${anchors.bookings.pending}/decline`

describe('the change summary of a write', () => {
  it('is on the journal entry, not in the answer the app gets', async () => {
    const sandbox = createSandbox()
    const authorization = await tokenOf(sandbox, 'host')
    const answer = await send(sandbox, 'POST', decline, {
      body: { reason: 'Closed' },
      headers: { authorization },
    })
    expect(answer.status).toBe(201)
    expect(answer.body).toEqual({ success: true })
    expect(answer.headers['x-sandbox-changes']).toBeUndefined()
    const entry = sandbox.journal.list().at(-1)!
    expect(entry.operationId).toBe('declineBooking')
    expect(entry.changes).toEqual({
      bookings: {
        changed: {
          [anchors.bookings.pending]: {
            status: ['pending', 'declined'],
            declineReason: [null, 'Closed'],
          },
        },
      },
      notifications: { created: ['ntf_n0001'] },
    })
    const store = await sandbox.store()
    expect(store.notifications.get('ntf_n0001')?.userId).toBe(
      store.bookings.get(anchors.bookings.pending)?.guestId,
    )
  })

  it('is in the x-sandbox-changes header when the request asks, and absent for a dry run or a refusal', async () => {
    const sandbox = createSandbox()
    const authorization = await tokenOf(sandbox, 'host')
    const headers = { authorization, 'x-sandbox-changes': 'true' }
    const dry = await send(sandbox, 'POST', `${decline}?dryRun=true`, { body: {}, headers })
    expect(dry.status).toBe(201)
    expect(dry.headers['x-sandbox-changes']).toBeUndefined()
    const done = await send(sandbox, 'POST', decline, { body: {}, headers })
    expect(decodeChanges(done.headers['x-sandbox-changes']!)).toEqual(
      sandbox.journal.list().at(-1)!.changes,
    )
    const again = await send(sandbox, 'POST', decline, { body: {}, headers })
    expect(again.status).toBe(409)
    expect(again.headers['x-sandbox-changes']).toBeUndefined()
    expect(sandbox.journal.list().map((entry) => entry.changes !== undefined)).toEqual([
      false,
      false,
      true,
      false,
    ])
  })

  it('says what a reset undid, and lists at most 20 records with the rest counted', async () => {
    const sandbox = createSandbox()
    const authorization = await tokenOf(sandbox, 'host')
    await send(sandbox, 'POST', decline, { body: { reason: 'Closed' }, headers: { authorization } })
    const asked = { 'x-sandbox-changes': 'true' }
    const reset = await send(sandbox, 'POST', '/__sandbox/reset', { body: {}, headers: asked })
    expect(reset.status).toBe(200)
    expect(reset.body).toMatchObject({ session: 'default', scenario: 'default' })
    expect(decodeChanges(reset.headers['x-sandbox-changes']!)).toEqual({
      bookings: {
        changed: {
          [anchors.bookings.pending]: {
            status: ['declined', 'pending'],
            declineReason: ['Closed', null],
          },
        },
      },
      notifications: { deleted: ['ntf_n0001'] },
    })
    // Another scenario: every record differs; 20 are listed, the rest counted.
    const header = (
      await send(sandbox, 'POST', '/__sandbox/reset', {
        body: { scenario: 'empty' },
        headers: asked,
      })
    ).headers['x-sandbox-changes']!
    const summary = Object.values(decodeChanges(header))
    const listed = summary.flatMap((changes) => [
      ...(changes?.created ?? []),
      ...(changes?.deleted ?? []),
      ...Object.keys(changes?.changed ?? {}),
    ])
    expect(listed).toHaveLength(20)
    expect(summary.reduce((total, changes) => total + (changes?.more ?? 0), 0)).toBeGreaterThan(100)
    expect(decodeURIComponent(header).length).toBeLessThan(5000)
    // Asked for nothing, a reset answers as it always did.
    const plain = await send(sandbox, 'POST', '/__sandbox/reset', { body: {} })
    expect(plain.headers['x-sandbox-changes']).toBeUndefined()
  })
})

describe('the journal views', () => {
  it('mark what the sandbox’s own tools sent, and ?app=true leaves it out', async () => {
    const sandbox = createSandbox()
    const authorization = await tokenOf(sandbox, 'host', { 'x-sandbox-client': 'mcp' })
    await send(sandbox, 'POST', decline, { body: {}, headers: { authorization } })
    const all = await send(sandbox, 'GET', '/__sandbox/requests')
    expect(
      (all.body as { operationId: string; client?: string }[]).map((entry) => [
        entry.operationId,
        entry.client,
      ]),
    ).toEqual([
      ['refreshToken', 'mcp'],
      ['declineBooking', undefined],
    ])
    const app = await send(sandbox, 'GET', '/__sandbox/requests?app=true')
    expect((app.body as { operationId: string }[]).map((entry) => entry.operationId)).toEqual([
      'declineBooking',
    ])
    const refused = await send(sandbox, 'GET', '/__sandbox/requests?app=yes')
    expect(refused.status).toBe(400)
  })

  it('list each fault rule with how often it fired', async () => {
    const sandbox = createSandbox()
    const authorization = await tokenOf(sandbox, 'host')
    const rule = { path: '/bookings/:id/decline', status: 503, times: 3 }
    expect((await send(sandbox, 'POST', '/__sandbox/faults', { body: rule })).body).toMatchObject({
      fired: 0,
      remaining: 3,
    })
    for (let call = 0; call < 2; call++) {
      await send(sandbox, 'POST', decline, { body: {}, headers: { authorization } })
    }
    const listed = await send(sandbox, 'GET', '/__sandbox/faults')
    expect(listed.body).toMatchObject([{ id: 'f1', fired: 2, remaining: 1 }])
  })
})
