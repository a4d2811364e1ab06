import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { writeAnswer } from './handler.ts'

interface ErrorBody {
  message: string
  code: string
  details?: string[]
}

let server: TestServer
const logs: string[] = []

beforeAll(async () => {
  server = await startTestServer({ quiet: false, log: (line) => logs.push(line) })
})
afterAll(() => server.close())

/**
 * Sends a chunked body (no Content-Length) of `parts` chunks and waits for the answer
 * before ending the upload: a 413 that arrives proves the server answered as soon as
 * the limit was passed, without waiting for (or keeping) the rest.
 */
function sendChunkedUntilAnswered(path: string, chunk: string, parts: number) {
  return new Promise<{ status: number; body: ErrorBody }>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, server.url),
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (data: string) => {
          text += data
        })
        res.on('end', () => {
          req.end()
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
        })
      },
    )
    req.on('error', reject)
    for (let i = 0; i < parts; i++) req.write(chunk)
  })
}

describe('CORS', () => {
  it('reflects an allowed local origin with credentials and exposes only Retry-After', async () => {
    const response = await server.request('/__sandbox/health', {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(response.headers['access-control-allow-credentials']).toBe('true')
    expect(response.headers['access-control-expose-headers']).toBe('Retry-After')
    expect(response.headers.vary).toContain('Origin')
  })

  it('allows http://127.0.0.1 on any port by default', async () => {
    const response = await server.request('/__sandbox/health', {
      headers: { origin: 'http://127.0.0.1:3000' },
    })
    expect(response.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000')
  })

  it('gives a foreign origin no CORS headers, so the browser blocks it', async () => {
    const response = await server.request('/__sandbox/health', {
      headers: { origin: 'https://evil.example' },
    })
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
    expect(response.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('answers a preflight with the methods, the requested headers and credentials', async () => {
    const response = await server.request('/bookings/bkg_pending/decline', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-sandbox-session',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(response.headers['access-control-allow-credentials']).toBe('true')
    expect(response.headers['access-control-allow-methods']).toContain('POST')
    expect(response.headers['access-control-allow-headers']).toBe(
      'authorization, content-type, x-sandbox-session',
    )
  })

  it('uses the configured origins instead of the defaults', async () => {
    const custom = await startTestServer({ corsOrigins: ['https://app.example.com'] })
    try {
      const allowed = await custom.request('/__sandbox/health', {
        headers: { origin: 'https://app.example.com' },
      })
      const local = await custom.request('/__sandbox/health', {
        headers: { origin: 'http://localhost:5173' },
      })
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com')
      expect(local.headers['access-control-allow-origin']).toBeUndefined()
    } finally {
      await custom.close()
    }
  })
})

describe('request bodies', () => {
  const session = 'bodies'

  it('answers 413 PAYLOAD_TOO_LARGE for a body declared above 100 kB, and writes nothing', async () => {
    const before = await server.collection('bookings', session)
    const response = await server.request<ErrorBody>(
      `/bookings/${anchors.bookings.pending}/decline`,
      { as: 'host', session, body: { reason: 'x'.repeat(101 * 1024) } },
    )
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
    expect(await server.collection('bookings', session)).toEqual(before)
    const journal = await server.request<{ status: number; operationId: string }[]>(
      '/__sandbox/requests',
      { session },
    )
    expect(journal.body.at(-1)).toMatchObject({ status: 413, operationId: 'declineBooking' })
  })

  it('answers 413 for a chunked body as soon as it passes the limit', async () => {
    const response = await sendChunkedUntilAnswered('/__sandbox/reset', 'x'.repeat(16 * 1024), 7)
    expect(response.status).toBe(413)
    expect(response.body).toEqual({
      message: 'Request body is larger than 102400 bytes',
      code: 'PAYLOAD_TOO_LARGE',
    })
  })

  it('accepts a body just under the limit', async () => {
    const reason = 'y'.repeat(100 * 1024 - 20)
    const response = await server.request(
      `/bookings/${anchors.bookings.pending}/decline?dryRun=true`,
      {
        as: 'host',
        session,
        body: { reason },
      },
    )
    // Over the operation's own 1000-character rule, but read and validated: not a 413.
    expect(response.status).toBe(400)
  })

  it('keeps serving on the same connections after a 413', async () => {
    const response = await server.request('/__sandbox/health')
    expect(response.status).toBe(200)
  })

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const response = await server.request<ErrorBody>(
      `/bookings/${anchors.bookings.pending}/decline?dryRun=true`,
      { as: 'host', session, body: '{"reason": ' },
    )
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({
      code: 'BAD_REQUEST',
      details: ['body must be valid JSON'],
    })
  })

  it('answers 400 for a JSON body that is not an object', async () => {
    const response = await server.request<ErrorBody>('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      session,
      body: '[1, 2]',
    })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('BAD_REQUEST')
  })

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a non-JSON POST body', async () => {
    const response = await server.request<ErrorBody>('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      session,
      body: 'follow please',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })
})

describe('routing and failures', () => {
  it('answers 404 with an ApiErrorResponseDto for an unknown route', async () => {
    const response = await server.request<ErrorBody>('/no/such/route')
    expect(response.status).toBe(404)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.body).toEqual({ message: 'Cannot GET /no/such/route', code: 'NOT_FOUND' })
  })

  it('answers 500 when an operation throws, and keeps serving', async () => {
    const session = 'broken-store'
    const store = await server.sandbox.store(session)
    const original = store.bookings.get
    store.bookings.get = () => {
      throw new Error('disk on fire (injected by the test)')
    }
    try {
      const failed = await server.request<ErrorBody>(
        `/bookings/${anchors.bookings.pending}/decline`,
        { as: 'host', session, body: {} },
      )
      expect(failed.status).toBe(500)
      expect(failed.body).toEqual({
        message: 'The sandbox failed to handle this request',
        code: 'INTERNAL_SERVER_ERROR',
      })
      const other = await server.request(
        `/bookings/${anchors.bookings.pending}/decline?dryRun=true`,
        {
          as: 'host',
          session: 'healthy-store',
          body: {},
        },
      )
      expect(other.status).toBe(201)
    } finally {
      store.bookings.get = original
    }
    const again = await server.request(`/bookings/${anchors.bookings.pending}/decline`, {
      as: 'host',
      session,
      body: {},
    })
    expect(again.status).toBe(201)
  })

  it('answers 500 when the adapter itself fails, and keeps serving', async () => {
    const original = server.sandbox.handle
    server.sandbox.handle = () =>
      Promise.reject(new Error('adapter failure (injected by the test)'))
    try {
      const failed = await server.request<ErrorBody>('/__sandbox/health')
      expect(failed.status).toBe(500)
      expect(failed.body.code).toBe('INTERNAL_SERVER_ERROR')
    } finally {
      server.sandbox.handle = original
    }
    expect((await server.request('/__sandbox/health')).status).toBe(200)
  })

  it('does not say which framework answers, and forbids caching', async () => {
    const response = await server.request('/__sandbox/health')
    expect(response.headers['x-powered-by']).toBeUndefined()
    expect(response.headers['cache-control']).toBe('no-store')
  })
})

describe('cookies', () => {
  it('sets the refresh_token cookie on sign-in', async () => {
    const response = await server.request('/auth/idp/complete', { body: { code: 'idp_host' } })
    expect(response.status).toBe(201)
    expect(response.headers['set-cookie']).toEqual([
      expect.stringMatching(/^refresh_token=rt_host\..+; Path=\/; HttpOnly; SameSite=Lax$/),
    ])
  })

  it('writes each Set-Cookie as its own header line', async () => {
    const plain = createServer((_req, res) =>
      writeAnswer(res, {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        setCookie: ['a=1; Path=/', 'b=2; Path=/; HttpOnly'],
        body: { ok: true },
      }),
    )
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = plain.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/`)
      expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly'])
    } finally {
      plain.close()
    }
  })
})

describe('request logs', () => {
  it('logs time, session, method, path, status, duration and dryRun for each request', async () => {
    logs.length = 0
    await server.request('/users/usr_guest/follow?dryRun=true', {
      as: 'host',
      session: 'logged',
      body: {},
    })
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^\d\d:\d\d:\d\d\.\d{3} logged POST \/users\/usr_guest\/follow 201 \d+\.\d ms dryRun=true$/,
      ),
    )
  })

  it('logs nothing when quiet', async () => {
    const quietLogs: string[] = []
    const quiet = await startTestServer({ quiet: true, log: (line) => quietLogs.push(line) })
    try {
      expect((await quiet.request('/__sandbox/health')).status).toBe(200)
      expect(quietLogs).toEqual([])
    } finally {
      await quiet.close()
    }
  })
})
