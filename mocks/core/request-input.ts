/**
 * @module
 * The pipeline's input stages, those that do not depend on the state or the caller: the
 * body parser (413, 415, malformed JSON) and the validation of `dryRun`, the path and the
 * body (400). The pipeline runs the guards between them; the learner checks recorded
 * requests with both (`checkInput`).
 */
import type { z } from '../model/zod.ts'
import { readDryRunQuery } from './dry-run.ts'
import { badRequest, SandboxError } from './errors.ts'
import type { Operation } from './operation.ts'
import { decodeParams } from './router.ts'
import { parseInput } from './validation.ts'

/** The exact UTF-8 length of `text`, counted without encoding it. */
export function byteLength(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2 // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++
    } else bytes += 2 // 3 bytes, lone surrogates too (encoded as U+FFFD)
  }
  return bytes
}

/** `application/json` of `Application/JSON; charset=utf-8`; `''` when there is none. */
function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return ''
  // The usual header, as clients send it, needs no copy.
  if (contentType.startsWith('application/json')) {
    if (contentType.length === 16 || contentType.charCodeAt(16) === 0x3b /* ; */) {
      return 'application/json'
    }
  }
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * What the body parser does with the body of a POST: size (413), media type (415), JSON
 * (400). An empty body is `{}`. The value is not checked further: that is validation's part.
 */
export function parseJsonBody(
  text: string | null | undefined,
  contentType: string | undefined,
  limitBytes: number,
  tooLarge = false,
): unknown {
  const oversized =
    tooLarge ||
    (text != null &&
      (text.length > limitBytes || (text.length * 3 > limitBytes && byteLength(text) > limitBytes)))
  if (oversized) throw new SandboxError(413, `Request body is larger than ${limitBytes} bytes`)
  if (text == null || text.length === 0) return {}
  const mediaType = mediaTypeOf(contentType)
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
    throw new SandboxError(
      415,
      `Unsupported media type "${mediaType || 'none'}": send application/json`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('Malformed JSON in request body', ['body must be valid JSON'])
  }
}

/** Reads the body of a POST: size, media type, JSON, object. Shared by every runtime. */
export function readJsonBody(
  text: string | null | undefined,
  contentType: string | undefined,
  limitBytes: number,
  tooLarge = false,
): Record<string, unknown> {
  const value = parseJsonBody(text, contentType, limitBytes, tooLarge)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object', ['body must be an object'])
  }
  return value as Record<string, unknown>
}

/**
 * `dryRun` of the query (`null` when the operation has none), or the 400 it is refused with;
 * read first, so that a request refused earlier still journals it.
 */
export function readDryRun(
  operation: Operation,
  query: URLSearchParams,
  strictContract: boolean,
): { dryRun: boolean | null; error?: SandboxError } {
  if (!operation.dryRun) return { dryRun: null }
  try {
    const value = readDryRunQuery(query)
    if (value !== undefined) return { dryRun: value }
    if (!strictContract) return { dryRun: false }
    throw badRequest('Validation failed', [
      'dryRun is required by the published contract and must be one of: true',
    ])
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error
    return { dryRun: null, error }
  }
}

/** `schema`'s verdict; the messages only on failure, as zod's plain `safeParse` is quicker. */
function validated(schema: z.ZodMiniType, value: unknown, subject: string) {
  const quick = schema.safeParse(value)
  return quick.success
    ? { ok: true as const, data: quick.data }
    : parseInput(schema, value, subject)
}

/** What the input checks give the operation. */
export interface CheckedInput {
  dryRun: boolean | null
  params: Record<string, string>
  /** The body as its schema parsed it; `{}` for an operation without one. */
  body: Record<string, unknown>
}

/** The pipeline's settings the input stages read. */
interface InputSettings {
  strictContract: boolean
  bodyLimitBytes: number
}

/** What the input stages read of a request. */
interface Request {
  params: Record<string, string>
  query: URLSearchParams
  headers: Readonly<Record<string, string | undefined>>
  body: string | null | undefined
  bodyTooLarge?: boolean | undefined
}

/** Stage 1, the body parser (413, 415, malformed JSON), after `dryRun`'s reading. */
export function readStage(
  operation: Operation,
  input: Request,
  settings: InputSettings,
  read = readDryRun(operation, input.query, settings.strictContract),
) {
  const body =
    operation.method === 'POST'
      ? parseJsonBody(
          input.body,
          input.headers['content-type'],
          settings.bodyLimitBytes,
          input.bodyTooLarge,
        )
      : undefined
  return { ...read, body }
}

/** Stage 4: the query, the path and the parsed body against their schemas: one 400 with every problem. */
export function validateStage(
  operation: Operation,
  rawParams: Record<string, string>,
  { dryRun, error, body }: ReturnType<typeof readStage>,
): CheckedInput {
  const params = validated(operation.params, decodeParams(rawParams), 'params')
  const parsedBody = operation.body ? validated(operation.body, body, 'body') : undefined
  // The usual case, every check passed, builds no list of problems.
  if (!error && params.ok && (!parsedBody || parsedBody.ok)) {
    return {
      dryRun,
      params: params.data as Record<string, string>,
      body: (parsedBody?.data ?? {}) as Record<string, unknown>,
    }
  }
  const details = [
    ...(error?.details ?? []),
    ...(params.ok ? [] : (params.error.details ?? [])),
    ...(parsedBody && !parsedBody.ok ? (parsedBody.error.details ?? []) : []),
  ]
  if (details.length > 0 || error || !params.ok || (parsedBody && !parsedBody.ok)) {
    throw badRequest('Validation failed', details)
  }
  const data = parsedBody?.ok ? parsedBody.data : {}
  return {
    dryRun,
    params: params.data as Record<string, string>,
    body: data as Record<string, unknown>,
  }
}

/**
 * The pipeline's input checks without its guards, in its order: what a request is answered
 * whatever the state and the caller. The learner checks recorded requests with it. Throws
 * the `SandboxError` the pipeline would answer.
 */
export function checkInput(
  operation: Operation,
  input: Request,
  settings: InputSettings,
): CheckedInput {
  return validateStage(operation, input.params, readStage(operation, input, settings))
}
