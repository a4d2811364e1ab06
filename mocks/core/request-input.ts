/**
 * @module
 * The pipeline's input stages, which depend on neither the state nor the caller: the body
 * parser (413, 415, malformed JSON) and the validation of `dryRun`, the path and the body (400).
 * The learner checks recorded requests with both (`checkInput`).
 */
import type { z } from '../model/zod.ts'
import { badRequest, SandboxError } from './errors.ts'
import type { Operation } from './operation.ts'
import { decodeParams } from './router.ts'
import { parseInput } from './validation.ts'

/** `dryRun`, `DRYRUN`, `dry-run`, `dry_run`, `dryRun[]`, `dryRun[0]`... */
function looksLikeDryRun(key: string): boolean {
  return (
    withoutIndex(key)
      .replace(/[-_\s]/g, '')
      .toLowerCase() === 'dryrun'
  )
}

/**
 * The key without a trailing `[...]` that holds no `]`, as `/\[[^\]]*\]$/` would strip it,
 * in one pass: that regular expression tries again from every `[`, so a key of thousands of
 * `[` cost quadratic time, and it runs on every request.
 */
function withoutIndex(key: string): string {
  if (!key.endsWith(']')) return key
  // The bracket starts after the `]` before the last one, at the first `[` there.
  const previous = key.lastIndexOf(']', key.length - 2)
  const open = key.indexOf('[', previous + 1)
  return open === -1 ? key : key.slice(0, open)
}

/**
 * `true` or `false` from the query, `undefined` when no form of `dryRun` is present. Strict:
 * a dry run taken for a write is the worst mistake a sandbox can make, so anything but one
 * `dryRun` of `true` or `false` (a repeat, `DRYRUN`, `dry_run`, `dryRun[]`) is a 400.
 */
export function readDryRunQuery(query: URLSearchParams): boolean | undefined {
  const values: string[] = []
  for (const [key, value] of query) {
    if (key === 'dryRun') {
      values.push(value)
      continue
    }
    if (looksLikeDryRun(key)) {
      throw badRequest('Validation failed', [
        `query parameter "${key}" is not recognised: send exactly one dryRun=true or dryRun=false`,
      ])
    }
  }
  if (values.length === 0) return undefined
  if (values.length > 1) {
    throw badRequest('Validation failed', [
      `dryRun must be given once, got ${values.length} values (${values.join(', ')})`,
    ])
  }
  const [value] = values
  if (value === 'true') return true
  if (value === 'false') return false
  throw badRequest('Validation failed', ['dryRun must be one of: true, false'])
}

const encoder = new TextEncoder()

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

/** The body parser of a POST: size (413), media type (415), JSON (400); an empty body is `{}`. */
function parseJsonBody(
  text: string | null | undefined,
  contentType: string | undefined,
  limitBytes: number,
  tooLarge = false,
): unknown {
  const oversized =
    tooLarge ||
    (text != null &&
      (text.length > limitBytes ||
        (text.length * 3 > limitBytes && encoder.encode(text).byteLength > limitBytes)))
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

/** The body parser's verdict on a request's body: its value, or the refusal. */
export type BodyReading = { value: unknown } | { refusal: SandboxError }

/**
 * The body parser's reading of `input`'s body, made once and kept on it: the pipeline, the
 * control API and the caller (a refresh token sent in the body) read the same. Throws the 413,
 * 415 or 400 it is refused with.
 */
export function readBody(input: InputRequest, limitBytes: number): unknown {
  if (!input.reading) {
    try {
      const value = parseJsonBody(
        input.body,
        input.headers['content-type'],
        limitBytes,
        input.bodyTooLarge,
      )
      input.reading = { value }
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error
      input.reading = { refusal: error }
    }
  }
  if ('refusal' in input.reading) throw input.reading.refusal
  return input.reading.value
}

/** {@link readBody}, a JSON object: what a control call's body must be. */
export function readJsonObject(input: InputRequest, limitBytes: number): Record<string, unknown> {
  const value = readBody(input, limitBytes)
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

export interface CheckedInput {
  dryRun: boolean | null
  params: Record<string, string>
  /** The body as its schema parsed it; `{}` for an operation without one. */
  body: Record<string, unknown>
  /** The query as `Operation.query` parsed it, when it declares one. */
  query?: unknown
}

interface InputSettings {
  strictContract: boolean
  bodyLimitBytes: number
}

/** What the input stages read of a request (a `RequestContext`, or a recorded request). */
export interface InputRequest {
  params: Record<string, string>
  query: URLSearchParams
  headers: Readonly<Record<string, string | undefined>>
  body: string | null | undefined
  bodyTooLarge?: boolean | undefined
  /** Where {@link readBody} keeps its reading. */
  reading?: BodyReading | undefined
}

/** Stage 1, the body parser (413, 415, malformed JSON), after `dryRun`'s reading. */
export function readStage(
  operation: Operation,
  input: InputRequest,
  settings: InputSettings,
  read = readDryRun(operation, input.query, settings.strictContract),
) {
  const body = operation.method !== 'GET' ? readBody(input, settings.bodyLimitBytes) : undefined
  const query = operation.query && queryObject(input.query)
  return { ...read, body, query }
}

/** The query as an object for its schema: a repeated name is an array, `dryRun` left out. */
function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const object: Record<string, string | string[]> = {}
  for (const name of new Set(query.keys())) {
    if (name === 'dryRun') continue
    const values = query.getAll(name)
    object[name] = values.length === 1 ? values[0]! : values
  }
  return object
}

/** Stage 4: the query, the path and the body against their schemas: one 400 with every problem. */
export function validateStage(
  operation: Operation,
  rawParams: Record<string, string>,
  { dryRun, error, body, query }: ReturnType<typeof readStage>,
): CheckedInput {
  const params = validated(operation.params, decodeParams(rawParams), 'params')
  const parsedQuery = operation.query ? validated(operation.query, query, 'query') : undefined
  const parsedBody = operation.body ? validated(operation.body, body, 'body') : undefined
  // The usual case, every check passed, builds no list of problems.
  if (!error && params.ok && (!parsedBody || parsedBody.ok) && (!parsedQuery || parsedQuery.ok)) {
    return {
      dryRun,
      params: params.data as Record<string, string>,
      body: (parsedBody?.data ?? {}) as Record<string, unknown>,
      query: parsedQuery?.data,
    }
  }
  throw badRequest('Validation failed', [
    ...(error?.details ?? []),
    ...(params.ok ? [] : (params.error.details ?? [])),
    ...(parsedQuery && !parsedQuery.ok ? (parsedQuery.error.details ?? []) : []),
    ...(parsedBody && !parsedBody.ok ? (parsedBody.error.details ?? []) : []),
  ])
}

/**
 * The pipeline's input checks without its guards, in its order: what a request is answered
 * whatever the state and the caller. Throws the `SandboxError` the pipeline would answer.
 */
export function checkInput(
  operation: Operation,
  input: InputRequest,
  settings: InputSettings,
): CheckedInput {
  return validateStage(operation, input.params, readStage(operation, input, settings))
}
