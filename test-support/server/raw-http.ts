/**
 * @module
 * A raw TCP client for tests that must send what `node:http` refuses to send
 * (oversized or contradictory headers) or cut a request short.
 */
import { connect } from 'node:net'

export interface RawResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  body: string
}

function parse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n')
  const head = end === -1 ? text : text.slice(0, end)
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: end === -1 ? '' : text.slice(end + 4),
  }
}

/** Sends `request` as bytes to `port` on 127.0.0.1 and reads until the server closes. */
export function sendRaw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(port, '127.0.0.1', () => socket.end(request))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(parse(Buffer.concat(chunks).toString('utf8'))))
    socket.setTimeout(5000, () => socket.destroy(new Error('Failed to read: timed out')))
  })
}

/**
 * Starts a POST that promises `declaredLength` bytes, sends `sent` of them, then
 * closes the connection; resolves once it is closed.
 */
export function abortUpload(
  port: number,
  path: string,
  declaredLength: number,
  sent: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declaredLength}\r\n\r\n${sent}`,
      )
      setTimeout(() => socket.destroy(), 50)
    })
    socket.on('error', reject)
    socket.on('close', () => resolve())
  })
}
