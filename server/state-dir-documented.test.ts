/**
 * The merged document says which control calls answer 503 `SERVICE_UNAVAILABLE` because of
 * the state directory: exactly the ones that do, for a session whose log has a line that does
 * not parse; and a write the log cannot take answers it with `Retry-After`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { controlRoutes } from '../mocks/core/index.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { signIn } from '../mocks/sandbox-client/sandbox-client.ts'
import { buildMergedDocument } from '../scripts/spec/build-document.ts'
import { fileOfSession, openStateDir } from './state-dir.ts'

const directory = mkdtempSync(join(tmpdir(), 'sandbox-documented-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

async function open() {
  const state = openStateDir(directory)
  const sandbox = createSandbox(state.sandboxOptions)
  await state.restore(sandbox)
  return sandbox
}

const merged = await buildMergedDocument()
type Responses = Record<string, { $ref?: string }>
const responsesOf = (method: string, path: string) =>
  (merged.paths[path] as Record<string, { responses: Responses }>)[method.toLowerCase()]!.responses

/** A call of each control route that would succeed on a healthy session. */
const bodies: Record<string, unknown> = {
  'POST /__sandbox/scenarios': { name: 'documented', extends: 'empty' },
  'POST /__sandbox/snapshots': { name: 'documented-snapshot' },
  'POST /__sandbox/faults': { path: '/auth/refresh', status: 500 },
  'POST /__sandbox/clock': { advanceSeconds: 5 },
  'POST /__sandbox/reset': {},
}
const urls: Record<string, string> = {
  'GET /__sandbox/snapshots/{name}': '/__sandbox/snapshots/documented-snapshot',
  'DELETE /__sandbox/snapshots/{name}': '/__sandbox/snapshots/documented-snapshot',
  'GET /__sandbox/collections/{name}': '/__sandbox/collections/bookings',
  'DELETE /__sandbox/sessions/{id}': '/__sandbox/sessions/someone-else',
  'DELETE /__sandbox/faults/{id}': '/__sandbox/faults/f1',
}

describe('a session whose log has a line that does not parse', () => {
  it('answers 503 on exactly the control calls the document gives a 503', async () => {
    const first = await open()
    const token = await signIn(first, 'host')
    for (let i = 0; i < 2; i++) {
      const written = await first.handle({
        method: 'POST',
        url: `/venues/${anchors.venues.claimRequested}/send-claim-email`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-sandbox-session': 'broken',
        },
        body: '{}',
      })
      expect(written.status).toBe(201)
    }
    const log = fileOfSession(join(directory, 'sessions'), 'broken')
    const [one, two] = readFileSync(log, 'utf8').split('\n')
    writeFileSync(log, `${one}\n{"time": garbage\n${two}\n`)

    const second = await open()
    const answered: string[] = []
    for (const route of controlRoutes.filter((candidate) => candidate.handle)) {
      const key = `${route.method} ${route.path}`
      const body = bodies[key]
      const answer = await second.handle({
        method: route.method,
        url: urls[key] ?? route.path,
        headers: { 'content-type': 'application/json', 'x-sandbox-session': 'broken' },
        body: body === undefined ? null : JSON.stringify(body),
      })
      if (answer.status === 503) {
        expect(answer.body, key).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
        answered.push(key)
      }
    }
    const documented = controlRoutes
      .filter((route) => route.handle)
      .map((route) => ({ route, responses: responsesOf(route.method, route.path) }))
      .filter(({ responses }) => '503' in responses)
      .map(({ route }) => `${route.method} ${route.path}`)
    expect(answered.length).toBeGreaterThan(0)
    expect(answered.sort()).toEqual(documented.sort())
    for (const key of documented) {
      const [method, path] = key.split(' ')
      expect(responsesOf(method!, path!)['503']).toEqual({
        $ref: '#/components/responses/ServiceUnavailable',
      })
    }
  })
})

describe('the shared 503 answer', () => {
  it('says the sandbox answers it itself with a state directory, with Retry-After', () => {
    const unavailable = (merged.components!.responses as Record<string, Record<string, unknown>>)
      .ServiceUnavailable!
    expect(unavailable.description).toMatch(/state directory/)
    expect(unavailable.description).toMatch(/does\s+not parse/)
    expect(Object.keys(unavailable.headers as object)).toContain('Retry-After')
  })
})
