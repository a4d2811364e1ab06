/**
 * @module
 * Starts the standalone server, answers what Node's HTTP parser refuses as an
 * `ApiErrorResponseDto`, and closes gracefully.
 */
import { createServer, type Server, STATUS_CODES } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Express, Request, Response } from 'express'
import { printable, SandboxError } from '../mocks/core/index.ts'
import type { Sandbox } from '../mocks/sandbox.ts'
import { createServerApp } from './app.ts'
import { closeJournalStreams } from './console/journal-stream.ts'
import { listenAddress } from './exposure.ts'
import { answerUnexpectedError } from './handler.ts'
import { closeMcpSessions } from './mcp-route.ts'
import { createMetrics, type StoreMetrics } from './metrics.ts'
import { DEFAULT_HOST, DEFAULT_PORT, type ServerOptions } from './options.ts'
import type { StoreCounters } from './redis-store.ts'
import { openStateDir, type RestoreSummary } from './state-dir.ts'

/** `--state redis://...`: ioredis is loaded only then. */
async function openRedisState(options: ServerOptions, url: string, metrics: StoreMetrics | false) {
  const { openRedisStore } = await import('./redis-store.ts')
  const redis = await openRedisStore(url, {
    sessionTtlMs: options.sessionTtlMs,
    journalLimit: options.journalLimit,
    metrics: metrics || undefined,
  })
  return {
    redis,
    sandboxOptions: { ...options, store: redis.store },
    flush: () => redis.close(),
    startSweeping: () => undefined,
    async restore(restored: Sandbox): Promise<RestoreSummary> {
      await restored.ready
      const snapshots = restored.snapshots.list().length
      return { sessions: await redis.sessionCount(), snapshots, warnings: [] }
    },
  }
}

export interface RunningServer {
  /** `http://127.0.0.1:4010`, with the port actually bound. */
  url: string
  host: string
  port: number
  /** The same handler as an Express app, to mount elsewhere; this server calls the handler itself. */
  app: Express
  sandbox: Sandbox
  server: Server
  /** With `stateDir` or `state`: the session logs found and the saved snapshots restored on start. */
  restored: RestoreSummary | undefined
  /** With `state` (Redis): whether it answers now (readiness), and its round trips and failures. */
  stateStore: { where: string; ready(): Promise<boolean>; counters: StoreCounters } | undefined
  /**
   * Stops accepting connections, waits for in-flight requests (at most `closeTimeoutMs`),
   * writes the state directory through to the disk, then resolves. Safe to call twice.
   */
  close(): Promise<void>
}

/**
 * Starts the sandbox on `host:port`; resolves once it listens and its scenario is loaded.
 *
 * @example
 * const { url, close } = await startServer({ port: 0, quiet: true })
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST
  // Made first, so that a store can count its round trips in them.
  const metrics = options.metrics === false ? false : (options.metrics ?? createMetrics())
  const redis =
    options.state === undefined ? undefined : await openRedisState(options, options.state, metrics)
  const state =
    redis ??
    (options.stateDir === undefined
      ? undefined
      : openStateDir(options.stateDir, options, {
          fsync: options.fsync,
          sessionTtlMs: options.sessionTtlMs,
          onWarning: options.quiet
            ? undefined
            : (message) => console.error(`platform-sandbox: ${printable(message)}`),
        }))
  if (metrics && state) {
    const { sessions } = state.sandboxOptions.store
    // Redis counts its registry in one command; a directory is listed.
    metrics.readStoreSessions(
      redis ? redis.redis.sessionCount : async () => (await sessions.list()).length,
    )
  }
  const { app, sandbox, handler } = createServerApp({
    ...(state ? { ...options, ...state.sandboxOptions } : options),
    metrics,
  })
  // Saved snapshots come back before listening; sessions load from their logs when used.
  const restored = state ? await state.restore(sandbox) : undefined
  let closing: Promise<void> | undefined

  const server = createServer((req, res) => {
    // Once closing, answer what is in flight and drop keep-alive so its socket ends too.
    if (closing) res.setHeader('connection', 'close')
    // The handler itself, not the Express app: Express's work per request (its request and
    // response prototypes, its router) halved the throughput, for nothing the handler uses.
    const failed = (error?: unknown) =>
      answerUnexpectedError(error ?? new Error(`Nothing answered ${req.method} ${req.url}`), res)
    try {
      handler(req as Request, res as Response, failed)
    } catch (error) {
      // A throw Express would have caught: a 500, never the process.
      failed(error)
    }
  })
  server.on('clientError', answerClientError)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  try {
    await sandbox.ready
  } catch (error) {
    server.close()
    throw error
  }
  const { port } = server.address() as AddressInfo
  // The retention sweep runs once the server is ready, never before its first answer.
  state?.startSweeping()

  return {
    url: listenAddress(host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port),
    host,
    port,
    restored,
    stateStore: redis?.redis,
    app,
    sandbox,
    server,
    close() {
      closeJournalStreams(sandbox)
      void closeMcpSessions(sandbox)
      closing ??= new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(
          () => server.closeAllConnections(),
          options.closeTimeoutMs ?? 10_000,
        )
        // A keep-alive connection whose request was in flight turns idle when it is
        // answered; let go of it then rather than at its keep-alive timeout.
        const sweep = setInterval(() => server.closeIdleConnections(), 25)
        deadline.unref()
        sweep.unref()
        server.close((error) => {
          clearTimeout(deadline)
          clearInterval(sweep)
          if (error) {
            reject(error)
            return
          }
          try {
            Promise.resolve(state?.flush()).then(() => resolve(), reject)
          } catch (failure) {
            reject(failure)
          }
        })
        server.closeIdleConnections()
      })
      return closing
    },
  }
}

/** Node's own refusals (`clientError`: 400, 408, 431) as an `ApiErrorResponseDto`. */
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
function answerClientError(
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
