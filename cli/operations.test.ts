import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { getPersona } from '../fixtures/personas.ts'
import { runTestCommand, startTestCli, type TestCli } from '../test-support/server/test-cli.ts'

const examples = fileURLToPath(new URL('../examples/operations/index.mjs', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'sandbox-operations-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** A file of operations as a team writes one: a function of the kit, no import. */
function operationsFile(name: string, body: string): string {
  const file = join(folder, name)
  writeFileSync(file, `export default ({ defineOperation, z }) => [${body}]\n`)
  return file
}

const archive = `defineOperation({
  id: 'archiveAllNotifications', method: 'DELETE', path: '/me/notifications',
  summary: "Archives the caller's notifications", auth: 'signedIn', dryRun: true,
  responses: { 200: { schema: z.object({ archived: z.number() }) } },
  answer: async ({ collections, caller, now }) => {
    const own = collections.notifications.filter((n) => n.userId === caller.publicId && !n.archivedAt)
    for (const n of own) await collections.notifications.update(n.id, (d) => { d.archivedAt = now.toISOString() })
    return { archived: own.length }
  },
})`

async function signIn(url: string, key: 'host' | 'guest') {
  const response = await fetch(`${url}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: getPersona(key).refreshToken }),
  })
  const { accessToken } = (await response.json()) as { accessToken: string }
  return { authorization: `Bearer ${accessToken}` }
}

describe('platform-sandbox --operations <file>', () => {
  let cli: TestCli | undefined
  afterAll(() => cli?.stop())

  it('serves the operations of an .mjs file as rows of the one table, in the documents too', async () => {
    const own = operationsFile('archive.mjs', archive)
    const state = join(folder, 'state')
    cli = startTestCli(['--operations', examples, '--state-dir', state])
    const url = await cli.url
    const host = await signIn(url, 'host')
    const listed = await fetch(`${url}/host/bookings?status=pending&limit=20`, { headers: host })
    expect(listed.status).toBe(200)
    const page = (await listed.json()) as { items: { status: string }[]; total: number }
    expect(page.total).toBeGreaterThan(0)
    expect(page.items.every((item) => item.status === 'pending')).toBe(true)
    expect((await fetch(`${url}/host/bookings`, { method: 'PUT', headers: host })).status).toBe(405)
    const document = (await (await fetch(`${url}/__sandbox/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { 'x-sandbox-proposed'?: boolean; tags: string[] }>>
    }
    expect(document.paths['/host/bookings']?.get).toMatchObject({
      operationId: 'listHostBookings',
      'x-sandbox-proposed': true,
      tags: ['Proposed'],
    })
    expect(document.paths['/payprov/account-status']?.get?.['x-sandbox-proposed']).toBeUndefined()
    await cli.stop()

    // A write of the second file, logged; replayed by the next start that declares it.
    cli = startTestCli(['--operations', own, '--state-dir', state])
    const second = await cli.url
    const guest = { ...(await signIn(second, 'guest')), 'x-sandbox-session': 'kept' }
    const archived = await fetch(`${second}/me/notifications`, { method: 'DELETE', headers: guest })
    expect(archived.status).toBe(200)
    const { archived: count } = (await archived.json()) as { archived: number }
    expect(count).toBeGreaterThan(0)
    const journal = (await (await fetch(`${second}/__sandbox/requests?session=kept`)).json()) as {
      operationId: string
    }[]
    expect(journal.map((entry) => entry.operationId)).toContain('archiveAllNotifications')
    await cli.stop()

    cli = startTestCli(['--operations', own, '--state-dir', state])
    const third = await cli.url
    const again = await fetch(`${third}/me/notifications?dryRun=true`, {
      method: 'DELETE',
      headers: { ...(await signIn(third, 'guest')), 'x-sandbox-session': 'kept' },
    })
    expect(await again.json()).toEqual({ archived: 0 })
    await cli.stop()

    // Its operation no longer declared: that session is unavailable, naming it; others serve.
    cli = startTestCli(['--state-dir', state])
    const fourth = await cli.url
    const lost = await fetch(`${fourth}/payprov/account-status`, {
      headers: { ...(await signIn(fourth, 'host')), 'x-sandbox-session': 'kept' },
    })
    expect(lost.status).toBe(503)
    expect(((await lost.json()) as { message: string }).message).toContain(
      'DELETE /me/notifications',
    )
    const other = await fetch(`${fourth}/payprov/account-status`, {
      headers: await signIn(fourth, 'host'),
    })
    expect(other.status).toBe(200)
    await cli.stop()

    // `state check` reports it (but not with the file that declares it); `repair` sets it aside.
    const check = await runTestCommand(['state', 'check', state])
    expect(check.code).toBe(2)
    expect(check.stdout).toMatch(
      /\.jsonl:\d+: session "kept": a write of DELETE \/me\/notifications, which no operation/,
    )
    expect((await runTestCommand(['state', 'check', state, '--operations', own])).code).toBe(0)
    expect((await runTestCommand(['state', 'repair', state])).code).toBe(0)
    cli = startTestCli(['--state-dir', state])
    const fifth = await cli.url
    const repaired = await fetch(`${fifth}/__sandbox/collections/notifications?session=kept`)
    expect(repaired.status).toBe(200)
  })

  it('writes the app document with them (openapi --operations --out)', async () => {
    const out = join(folder, 'openapi.app.json')
    const result = await runTestCommand(['openapi', '--operations', examples, '--out', out])
    expect(result.code).toBe(0)
    const document = JSON.parse(readFileSync(out, 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; 'x-sandbox-proposed'?: true }>>
    }
    expect(document.paths['/users/{userId}/profile']?.get).toMatchObject({
      operationId: 'getUserProfile',
      'x-sandbox-proposed': true,
    })
    expect(document.paths['/bookings/{bookingId}/decline']?.post?.operationId).toBe(
      'declineBooking',
    )
    expect(Object.keys(document.paths).some((path) => path.startsWith('/__sandbox'))).toBe(false)
  })

  it.each([
    ['a file that does not load', 'broken.mjs', 'export default [', 'does not load'],
    ['no default export', 'none.mjs', 'export const x = 1', 'its default export must be'],
    [
      'an invalid declaration',
      'invalid.mjs',
      "export default [{ id: 'x', method: 'GET', path: '/x', auth: 'public', responses: { 200: {} } }]",
      'operation "x": summary is required',
    ],
    [
      'two operations on one method and path',
      'twice.mjs',
      `export default ({ defineOperation, z }) => [${archive}, { ...${archive}, id: 'again' }]`,
      'operation "again": DELETE /me/notifications is declared by operation "archiveAllNotifications" too',
    ],
  ])('refuses %s at start, naming the file and the problem', async (_, name, text, problem) => {
    const file = join(folder, name)
    writeFileSync(file, text)
    const { code, stderr } = await runTestCommand(['--port', '0', '--operations', file])
    expect(code).toBe(2)
    expect(stderr).toContain(file)
    expect(stderr).toContain(problem)
  })
})
