/**
 * @module
 * The Node adapter: reads the raw body (bounded), calls `sandbox.handle` with plain values and
 * writes the plain answer back. No Fetch `Request`/`Response`, no msw, no body-parser.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { SandboxRequest, SandboxResponse } from '../mocks/core/index.ts'
import { FAULT_HEADER, internalErrorResponse, RequestContext } from '../mocks/core/index.ts'
import type { Sandbox } from '../mocks/sandbox.ts'
import { BodyAbortedError, readBody, TOO_LARGE } from './read-body.ts'

export interface SandboxHandlerOptions {
  /** Pass requests that are neither an operation nor the control API to `next()`, not a 404. */
  fallthrough?: boolean
}

/**
 * Writes a sandbox answer, all headers in one `writeHead` (Node's fast path when no other
 * middleware set any), each `Set-Cookie` after any another middleware set.
 */
export function writeAnswer(res: ServerResponse, answer: SandboxResponse): void {
  // Set apart (off Node's fast path, for faulted answers only) so the request log sees it.
  const fault = answer.headers[FAULT_HEADER]
  if (fault !== undefined) res.setHeader(FAULT_HEADER, fault)
  if (answer.networkError) {
    // A fault rule asked for a broken network: reset the connection (TCP RST).
    if (res.socket && 'resetAndDestroy' in res.socket) res.socket.resetAndDestroy()
    else res.destroy()
    return
  }
  const headers: Record<string, string | number | string[]> = {
    ...answer.headers,
    'cache-control': 'no-store',
  }
  if (answer.setCookie.length > 0) {
    const earlier = res.getHeader('set-cookie')
    headers['set-cookie'] =
      earlier === undefined
        ? answer.setCookie
        : [...[earlier].flat().map(String), ...answer.setCookie]
  }
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers)
    res.end()
    return
  }
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
  headers['content-length'] = Buffer.byteLength(text)
  res.writeHead(answer.status, headers)
  res.end(text)
}

const contexts = new WeakMap<IncomingMessage, RequestContext>()

/**
 * The context of a request, made once, on first use: the control edge, the console, the sandbox
 * and the request log read the same (the sandbox's handler gives it the body it reads).
 */
export function contextOf(req: IncomingMessage): RequestContext {
  let context = contexts.get(req)
  if (context === undefined || context.url !== req.url) {
    // Node gives lower-case names and joins repeated headers (but `set-cookie`, which the
    // sandbox never reads from a request): the object is taken as it is, without a copy.
    const headers = req.headers as SandboxRequest['headers']
    const url = req.url ?? '/'
    const request = { method: req.method ?? 'GET', url, headers, body: null, bodyTooLarge: false }
    context = new RequestContext(request)
    contexts.set(req, context)
  }
  return context
}

/** The text of a body another middleware (e.g. `express.json()`) has already read. */
function parsedBodyText(body: unknown): string {
  if (typeof body === 'string') return body
  if (Buffer.isBuffer(body)) return body.toString('utf8')
  return JSON.stringify(body)
}

/**
 * The Express request handler of `sandbox`, its paths relative to where it is mounted
 * (`app.use('/api', handler)` serves `/api/bookings/...` as `/bookings/...`).
 */
export function createSandboxHandler(sandbox: Sandbox, options: SandboxHandlerOptions = {}) {
  const limit = sandbox.settings.bodyLimitBytes
  const fallthrough = options.fallthrough ?? false

  return async function sandboxHandler(
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    const context = contextOf(req)
    const { method } = req
    // Mounted with fallthrough, the route is found once: what is not the sandbox's goes on.
    if (fallthrough) {
      const route = sandbox.route(method, context.path)
      if (route === undefined) {
        next()
        return
      }
      if (route !== 'control') context.matched = route
    }

    const request = context.request
    if (req.body !== undefined) {
      request.body = parsedBodyText(req.body)
    } else if (method !== 'GET' && method !== 'HEAD') {
      let read: string | typeof TOO_LARGE
      try {
        read = await readBody(req, limit)
      } catch (error) {
        if (error instanceof BodyAbortedError) return
        throw error
      }
      // The sandbox answers the 413 itself, so it is journaled like any other refusal.
      if (read === TOO_LARGE) request.bodyTooLarge = true
      else request.body = read
    }
    writeAnswer(res, await sandbox.handle(context))
  }
}

/** Any error thrown before the sandbox answered becomes a 500 `ApiErrorResponseDto`. */
export function answerUnexpectedError(error: unknown, res: ServerResponse): void {
  console.error('[sandbox] request failed:', error)
  if (res.headersSent) {
    res.destroy()
    return
  }
  writeAnswer(res, internalErrorResponse())
}
