/**
 * @module
 * What Node's HTTP parser refuses before any handler sees it, answered as an
 * `ApiErrorResponseDto`; the connection then closes.
 */
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { SandboxError } from '../mocks/core/errors.ts'

function refusalOf(code: string | undefined, reason: string | undefined): SandboxError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new SandboxError(431, 'Request headers are too large', [
      'the request line and headers must fit in the server limit (16 kB by default)',
    ])
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new SandboxError(408, 'The request took too long to arrive')
  }
  // llhttp names the problem in `reason`, e.g. "Transfer-Encoding can't be present with
  // Content-Length"; the code alone (HPE_INVALID_TRANSFER_ENCODING) says less.
  return new SandboxError(400, 'Malformed HTTP request', [
    `${reason ?? 'the HTTP parser refused the request'}${code ? ` (${code})` : ''}`,
  ])
}

interface SocketWithMessage extends Socket {
  _httpMessage?: { headersSent?: boolean } | null
}

/** The server's `clientError` listener; with an answer on its way, the socket is destroyed. */
export function answerClientError(
  error: Error & { code?: string; reason?: string },
  socket: Socket,
): void {
  const inFlight = (socket as SocketWithMessage)._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  const refusal = refusalOf(error.code, error.reason)
  const body = JSON.stringify(refusal.toBody())
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  )
}
