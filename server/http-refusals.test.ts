import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { anchors } from '../fixtures/anchors.ts'
import { abortUpload, sendRaw } from '../test-support/server/raw-http.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'

let server: TestServer
const logs: string[] = []

beforeAll(async () => {
  server = await startTestServer({ quiet: false, log: (line) => logs.push(line) })
})
afterAll(() => server.close())
afterEach(() => vi.restoreAllMocks())

const decline = `/bookings/${anchors.bookings.pending}/decline`

describe("requests Node's parser refuses", () => {
  it('answers 431 with an ApiErrorResponseDto for headers above the limit', async () => {
    const response = await sendRaw(
      server.port,
      `GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    )
    expect(response.status).toBe(431)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(response.body)).toEqual({
      message: 'Request headers are too large',
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      details: ['the request line and headers must fit in the server limit (16 kB by default)'],
    })
  })

  it('answers 400 with an ApiErrorResponseDto for Content-Length with Transfer-Encoding', async () => {
    const response = await sendRaw(
      server.port,
      'POST /__sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    )
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({
      message: 'Malformed HTTP request',
      code: 'BAD_REQUEST',
      details: [
        expect.stringMatching(
          /Transfer-Encoding.*Content-Length|Content-Length.*Transfer-Encoding/,
        ),
      ],
    })
  })

  it('answers 400 with an ApiErrorResponseDto for a malformed request line', async () => {
    const response = await sendRaw(server.port, 'NOT A REQUEST\r\n\r\n')
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('keeps serving afterwards', async () => {
    expect((await server.request('/__sandbox/health')).status).toBe(200)
  })
})

describe('methods over HTTP', () => {
  it('sends the Allow header with a 405', async () => {
    const response = await server.request(decline, { method: 'GET' })
    expect(response.status).toBe(405)
    expect(response.headers.allow).toBe('POST, OPTIONS')
    expect(response.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
  })

  it('answers HEAD like GET with no body', async () => {
    const response = await server.request('/__sandbox/personas', { method: 'HEAD' })
    const get = await server.request('/__sandbox/personas')
    expect(response.status).toBe(200)
    expect(response.text).toBe('')
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(get.text)))
  })
})

describe('a client that aborts its upload', () => {
  it('prints no stack trace, only its request log line', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    logs.length = 0
    await abortUpload(server.port, decline, 100, '{"reas')
    await vi.waitFor(() => expect(logs.some((line) => line.includes(' 499 '))).toBe(true))
    expect(errors).not.toHaveBeenCalled()
    expect(logs).toEqual([expect.stringMatching(/ POST \/bookings\/bkg_pending\/decline 499 /)])
  })

  it('prints nothing at all when quiet', async () => {
    const quiet = await startTestServer()
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const writes = vi.spyOn(process.stdout, 'write')
    try {
      await abortUpload(quiet.port, decline, 100, '{"reas')
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(errors).not.toHaveBeenCalled()
      expect(writes).not.toHaveBeenCalled()
    } finally {
      await quiet.close()
    }
  })
})
