import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../cli/cli-options.ts'
import { anchors } from '../fixtures/anchors.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { formatRequestLog } from './request-log.ts'

let server: TestServer
const lines: string[] = []

beforeAll(async () => {
  server = await startTestServer({
    quiet: false,
    logFormat: 'json',
    log: (line) => lines.push(line),
  })
})
afterAll(() => server.close())

const waitForLines = async (count: number) => {
  for (let i = 0; i < 50 && lines.length < count; i++) await new Promise((r) => setTimeout(r, 10))
}

describe('request log', () => {
  it('writes one JSON object per request with --log json', async () => {
    lines.length = 0
    await server.request('/auth/refresh?dryRun=true', {
      session: 'json-log',
      body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
    })
    await waitForLines(1)
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      session: 'json-log',
      method: 'POST',
      path: '/auth/refresh',
      status: 200,
      ms: expect.any(Number),
      dryRun: 'true',
      fault: null,
    })
  })

  it('names the fault rule of a faulted answer, and a reset connection', async () => {
    const session = 'fault-log'
    await server.request('/__sandbox/faults', {
      session,
      body: { id: 'slow-decline', path: '/bookings/:id/decline', status: 409, times: 1 },
    })
    await server.request('/__sandbox/faults', {
      session,
      body: { id: 'cut', path: '/auth/refresh', networkError: true, times: 1 },
    })
    lines.length = 0
    const faulted = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
      session,
      body: {},
    })
    expect(faulted.status).toBe(409)
    expect(faulted.headers['x-sandbox-fault']).toBe('slow-decline')
    await expect(server.request('/auth/refresh', { session, body: {} })).rejects.toThrow()
    await waitForLines(2)
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ status: 409, fault: 'slow-decline' }),
      expect.objectContaining({ status: 0, fault: 'cut', path: '/auth/refresh' }),
    ])
  })
})

describe('the text request log', () => {
  let textServer: TestServer
  let output = ''

  beforeAll(async () => {
    textServer = await startTestServer({
      quiet: false,
      logFormat: 'text',
      log: (line) => {
        output += `${line}\n`
      },
    })
  })
  afterAll(() => textServer.close())

  /** What the terminal shows for one request: its lines, split as a terminal would. */
  const linesOf = async (path: string, cookie: string) => {
    output = ''
    await textServer.request(path, { headers: { cookie } })
    for (let i = 0; i < 50 && output === ''; i++) await new Promise((r) => setTimeout(r, 10))
    return output.replace(/\n$/, '').split(/\r\n|\r|\n/)
  }

  it('prints a session id with CR and LF as one line, escaped', async () => {
    const forged = '09:30:12.345 admin POST /__sandbox/reset 200 0.1 ms'
    const lines = await linesOf(
      '/__sandbox/health?dryRun=%0d%0a',
      `sandbox_session=qa%0d%0a${encodeURIComponent(forged)}`,
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`qa\\r\\n${forged} GET /__sandbox/health 400`)
    expect(lines[0]).toMatch(/ dryRun=\\r\\n$/)
  })

  it('prints a session id with ESC as one line, escaped, without driving the terminal', async () => {
    const lines = await linesOf('/__sandbox/health', 'sandbox_session=qa%1b%5b2J%1b%5b31m')
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('\u001b')
    expect(lines[0]).toContain(' qa\\x1b[2J\\x1b[31m GET /__sandbox/health 400 ')
  })
})

describe('formatRequestLog', () => {
  const entry = {
    time: '2026-06-01T09:30:12.345Z',
    session: 'qa',
    method: 'POST',
    path: '/bookings/bkg_pending/decline',
    status: 500,
    durationMs: 1.84,
    dryRun: 'true',
    fault: 'f1',
  }

  it('writes plain text without colour', () => {
    expect(formatRequestLog(entry)).toBe(
      '09:30:12.345 qa POST /bookings/bkg_pending/decline 500 1.8 ms dryRun=true fault=f1',
    )
  })

  it('escapes the control characters of every field that came from the request', () => {
    const line = formatRequestLog({
      ...entry,
      session: 'a\u0085b\u007f',
      method: 'PO\tST',
      path: '/x\u2028y\u0000',
      dryRun: 'true\n',
      fault: 'f\u009b1',
    })
    expect(line).toBe(
      '09:30:12.345 a\\u0085b\\x7f PO\\tST /x\\u2028y\\x00 500 1.8 ms dryRun=true\\n fault=f\\u009b1',
    )
  })

  it('colours status and fault on a terminal', () => {
    const line = formatRequestLog(entry, true)
    expect(line).toContain('\u001b[31m500\u001b[39m')
    expect(line).toContain('\u001b[35mfault=f1\u001b[39m')
  })
})

describe('--log', () => {
  it('takes json or text, from the flag or SANDBOX_LOG', () => {
    expect(parseCliArguments(['--log', 'json'], {}).logFormat).toBe('json')
    expect(parseCliArguments([], { SANDBOX_LOG: 'text' }).logFormat).toBe('text')
    expect(parseCliArguments([], {}).logFormat).toBeUndefined()
  })
})
