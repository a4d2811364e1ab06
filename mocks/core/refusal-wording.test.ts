/**
 * What the control API and the operations refuse is said in the sandbox's own words: each
 * refusal names the field and its rule, and none quotes zod's default messages ("Invalid
 * input", "must match the starts_with format", "Too small").
 */
import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'

const sandbox = createSandbox()
const ZOD_WORDING =
  /Invalid (input|string|option|element|key)|starts_with|the \w+ format|Too (small|big)|expected \w+, received/

async function refusal(method: string, url: string, body?: unknown) {
  const answer = await sandbox.handle({
    method,
    url,
    headers: { 'content-type': 'application/json', 'x-sandbox-session': 'wording' },
    body: body === undefined ? null : JSON.stringify(body),
  })
  expect(answer.status).toBe(400)
  return answer.body as { message: string; details: string[] }
}

describe('refusals of the control API', () => {
  it.each([
    {
      call: ['POST', '/__sandbox/faults', { path: 'auth/refresh', status: 500 }],
      detail: 'path must start with "/"',
    },
    {
      call: ['POST', '/__sandbox/faults', { id: 'a b', path: '/auth/refresh', status: 500 }],
      detail: 'id must be 1 to 64 letters, digits or . _ : -',
    },
    {
      call: ['POST', '/__sandbox/faults', { method: 'G T', path: '/auth/refresh', status: 500 }],
      detail: 'method must be an HTTP method such as GET, or * for any',
    },
    {
      call: ['POST', '/__sandbox/faults', { path: '/auth/refresh', status: 418 }],
      detail: 'status: must be one of: 400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503, 504',
    },
    {
      call: ['POST', '/__sandbox/reset', { scenario: 'a b' }],
      detail: 'scenario must be 1 to 64 letters, digits, ".", "_" or "-"',
    },
    {
      call: ['POST', '/__sandbox/reset', { snapshot: 'saved', seed: 1 }],
      detail: 'body: give either snapshot, or scenario and seed',
    },
    {
      call: ['POST', '/__sandbox/clock', {}],
      detail: 'body: give exactly one of now, advanceSeconds',
    },
    {
      call: ['POST', '/__sandbox/clock', { now: 'soon' }],
      detail: 'now must be a valid ISO 8601 date string',
    },
    {
      call: ['POST', '/__sandbox/snapshots', { name: '' }],
      detail: 'name must be 1 to 64 letters, digits, ".", "_" or "-"',
    },
    {
      call: ['GET', '/__sandbox/requests?session='],
      detail: 'session must be 1 to 64 letters, digits or . _ : -',
    },
    {
      call: ['GET', '/__sandbox/requests?limit=0'],
      detail: 'limit must be a whole number from 1 to 9999999',
    },
    {
      call: ['DELETE', '/__sandbox/sessions/a%20b'],
      detail: 'id must be 1 to 64 letters, digits or . _ : -',
    },
    {
      call: ['DELETE', '/__sandbox/faults/a%20b'],
      detail: 'id must be 1 to 64 letters, digits or . _ : -',
    },
    {
      call: ['GET', '/__sandbox/snapshots/a%20b'],
      detail: 'name must be 1 to 64 letters, digits, ".", "_" or "-"',
    },
    {
      call: ['POST', '/__sandbox/scenarios', { name: 'ok-name', extends: '' }],
      detail: 'extends: must not be empty',
    },
  ] as const)('$call.0 $call.1: $detail', async ({ call, detail }) => {
    const [method, url, body] = call as unknown as [string, string, unknown]
    const { details } = await refusal(method, url, body)
    expect(details.join('\n')).toContain(detail)
    expect(details.join('\n')).not.toMatch(ZOD_WORDING)
  })
})

describe('refusals of the operations', () => {
  it('name the rule of a path parameter and of a body field in plain words', async () => {
    const path = await refusal('POST', '/admin/ambassadors/applications/not-an-email/status', {
      status: 'approved',
    })
    const body = await refusal('POST', '/auth/refresh?dryRun=true', { refreshToken: 1, extra: 1 })
    for (const { details } of [path, body]) {
      expect(details.length).toBeGreaterThan(0)
      expect(details.join('\n')).not.toMatch(ZOD_WORDING)
    }
  })
})
