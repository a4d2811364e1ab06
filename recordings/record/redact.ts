/**
 * @module
 * Takes secrets out of a recorded exchange before it is written (`Authorization`, cookies, JSON
 * fields named like a token, password or secret, what the user names), and reads who a recorded
 * `Authorization` names: a JWT's subject, or the one redaction kept.
 */
import { decodeJwt } from 'jose'
import { Cookie } from 'tough-cookie'
import { parseCookies, readBearer } from '../../mocks/core/index.ts'
import type { HarEntry, HarHeader } from '../har.ts'
import { parseJson } from '../replay/recordings.ts'

/** What the recorder writes for a redacted value (the journal writes `[redacted]`). */
export const REDACTED_IN_RECORDING = '[REDACTED]'

/** Whether a recorded value was redacted (`[REDACTED]`, `Bearer [REDACTED sub=...]`). */
export const isRedacted = (value: string): boolean => value.includes('[REDACTED')

const REDACTED_SUBJECT = /^Bearer \[REDACTED sub=([^\]]+)\]$/i

/** The claims of a JWT, its signature unchecked. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token)
  } catch {
    return undefined
  }
}

/** The subject (`sub`) of a JWT, its signature unchecked. */
export function jwtSubject(token: string): string | undefined {
  const sub = jwtClaims(token)?.sub
  return typeof sub === 'string' ? sub : undefined
}

/** The subject an `Authorization` header names, whole or redacted. */
export function bearerSubject(authorization: string): string | undefined {
  const bearer = readBearer(authorization)
  const redacted = REDACTED_SUBJECT.exec(authorization.trim())?.[1]
  return redacted ?? (bearer.ok ? jwtSubject(bearer.token) : undefined)
}

/** JSON fields redacted by default, whatever their depth. */
const SECRET_FIELD = /^(?:token|refresh_?token|access_?token|password|secret)$/i
/** A text without any of the names cannot hold such a field: it needs no parsing. */
const MAY_HOLD_SECRET = /token|password|secret/i

export interface RedactOptions {
  /** Extra header names (any case) and JSON pointers (`/user/ssn`) to redact. */
  extra?: readonly string[]
}

/** `Bearer <jwt>` becomes `Bearer [REDACTED sub=<subject>]`: who called stays known. */
function redactAuthorization(value: string): string {
  const bearer = readBearer(value)
  if (!bearer.ok) return REDACTED_IN_RECORDING
  const sub = jwtSubject(bearer.token)
  return sub ? `Bearer [REDACTED sub=${sub}]` : `Bearer ${REDACTED_IN_RECORDING}`
}

/** A `Cookie` header with each value redacted. */
function redactCookies(value: string): string {
  return Object.keys(parseCookies(value))
    .map((name) => `${name}=${REDACTED_IN_RECORDING}`)
    .join('; ')
}

/** A `Set-Cookie` value redacted, its attributes kept. */
function redactSetCookie(value: string): string {
  const cookie = Cookie.parse(value)
  if (cookie === undefined) return REDACTED_IN_RECORDING
  cookie.value = REDACTED_IN_RECORDING
  return cookie.toString()
}

function redactHeaders(headers: HarHeader[], extra: ReadonlySet<string>): void {
  for (const header of headers) {
    const name = header.name.toLowerCase()
    if (name === 'authorization') header.value = redactAuthorization(header.value)
    else if (name === 'cookie') header.value = redactCookies(header.value)
    else if (name === 'set-cookie') header.value = redactSetCookie(header.value)
    else if (extra.has(name)) header.value = REDACTED_IN_RECORDING
  }
}

function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactFields)
  if (value === null || typeof value !== 'object') return value
  // Own keys defined, not assigned: a recorded `__proto__` field stays a field.
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      SECRET_FIELD.test(key) && field !== null ? REDACTED_IN_RECORDING : redactFields(field),
    ]),
  )
}

/** Sets the value at a JSON pointer (RFC 6901) to `[REDACTED]` when it exists. */
function redactPointer(value: unknown, pointer: string): void {
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
  let parent: unknown = value
  for (const [index, token] of tokens.entries()) {
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, token)) return
    if (index === tokens.length - 1)
      (parent as Record<string, unknown>)[token] = REDACTED_IN_RECORDING
    else parent = (parent as Record<string, unknown>)[token]
  }
}

function redactJsonText(text: string, pointers: readonly string[]): string {
  if (pointers.length === 0 && !MAY_HOLD_SECRET.test(text)) return text
  const value = parseJson(text)
  if (value === undefined) return text
  const redacted = redactFields(value)
  for (const pointer of pointers) redactPointer(redacted, pointer)
  return JSON.stringify(redacted)
}

/** Redacts `entry` in place. */
export function redactEntry(entry: HarEntry, options: RedactOptions = {}): HarEntry {
  const extra = options.extra ?? []
  const pointers = extra.filter((item) => item.startsWith('/'))
  const headers = new Set(extra.filter((item) => !item.startsWith('/')).map((h) => h.toLowerCase()))
  redactHeaders(entry.request.headers, headers)
  redactHeaders(entry.response.headers, headers)
  entry.request.cookies = []
  entry.response.cookies = []
  if (entry.request.postData?.text !== undefined) {
    entry.request.postData.text = redactJsonText(entry.request.postData.text, pointers)
  }
  if (entry.response.content.text !== undefined && entry.response.content.encoding !== 'base64') {
    entry.response.content.text = redactJsonText(entry.response.content.text, pointers)
  }
  return entry
}
