/**
 * @module
 * The recorder: a reverse proxy appending each exchange, redacted, to a HAR file. A target that
 * is down or too slow gets the client a 502 and writes nothing.
 */
import { once } from 'node:events'
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createHarEntry } from '../har.ts'
import type { HarFile } from './har-file.ts'
import { type RedactOptions, redactEntry } from './redact.ts'

export interface RecordProxyOptions {
  /** The backend, `http://` or `https://`, with an optional path prefix. */
  target: URL
  file: HarFile
  port?: number
  host?: string
  /** `false` keeps secrets in the file. Default: redacted. */
  redact?: false | RedactOptions
  /** Longest wait for the target's answer, in ms. Default 30 s. */
  timeoutMs?: number
}

/** Headers that belong to one connection, never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  )
  const kept: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !listed.has(name)) kept[name] = value
  }
  return kept
}

/**
 * The whole body of `stream`. With 'data' events rather than `node:stream/consumers`' `buffer`,
 * whose async iteration made the recorder's mean latency 1.56x a bare proxy's (1.15x with this).
 */
function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

function answerJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  res.end(text)
}

const badGateway = (res: ServerResponse, message: string) =>
  answerJson(res, 502, { message, code: 'BAD_GATEWAY' })

const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded))/i

export async function startRecordProxy(options: RecordProxyOptions) {
  const { target, file } = options
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  const prefix = target.pathname.replace(/\/$/, '')
  const timeoutMs = options.timeoutMs ?? 30_000

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = new Date()
    const requestBody = await readAll(req)
    const headers = endToEnd(req.headers)
    headers.host = target.host
    const outgoing = send({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: prefix + (req.url ?? '/'),
      headers,
      timeout: timeoutMs,
    })
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    outgoing.on('error', (error) => {
      if (res.headersSent) res.destroy()
      else badGateway(res, `Failed to reach the target ${target.origin}: ${error.message}`)
    })
    outgoing.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers))
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        res.write(chunk)
      })
      answer.on('end', () => {
        res.end()
        // After the answer has left: the socket writes on the next tick, before this runs.
        setImmediate(record, req, requestBody, answer, Buffer.concat(chunks), started)
      })
      answer.on('error', () => res.destroy())
    })
    outgoing.end(requestBody.length > 0 ? requestBody : undefined)
  }

  function record(
    req: IncomingMessage,
    requestBody: Buffer,
    answer: IncomingMessage,
    body: Buffer,
    started: Date,
  ): void {
    const type = String(answer.headers['content-type'] ?? '')
    const textual = answer.headers['content-encoding'] === undefined && TEXT_TYPE.test(type)
    const entry = createHarEntry({
      method: req.method ?? 'GET',
      url: `${target.origin}${prefix}${req.url ?? '/'}`,
      requestHeaders: req.headers,
      requestBody: requestBody.length > 0 ? requestBody.toString('utf8') : null,
      status: answer.statusCode ?? 0,
      statusText: answer.statusMessage ?? '',
      responseHeaders: answer.headers,
      responseBody: textual ? body.toString('utf8') : body.toString('base64'),
      startedDateTime: started.toISOString(),
      time: Date.now() - started.getTime(),
    })
    if (!textual && body.length > 0) entry.response.content.encoding = 'base64'
    if (options.redact !== false) redactEntry(entry, options.redact ?? {})
    file.append(entry)
  }

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/__sandbox/health') {
      answerJson(res, 200, { status: 'ok', mode: 'record', target: target.href })
      return
    }
    forward(req, res).catch((error: unknown) => {
      if (res.headersSent) return
      badGateway(res, `Failed to forward the request to ${target.origin}: ${String(error)}`)
    })
  })
  const host = options.host ?? '127.0.0.1'
  server.listen(options.port ?? 0, host)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve))
      server.closeIdleConnections()
      await closed
      // The last exchanges are recorded on an immediate each: this one runs after them.
      await new Promise((resolve) => setImmediate(resolve))
      await file.flush()
    },
  }
}
