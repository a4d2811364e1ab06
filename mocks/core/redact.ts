/**
 * @module
 * Keeps secrets sent in a query string (`?access_token=<JWT>`) out of the request journal,
 * which anyone who can reach `/__sandbox/requests` may read.
 */

export const REDACTED = '[redacted]'

/** Names of query parameters that carry credentials: tokens, secrets, passwords, keys, codes. */
const SECRET_NAME =
  /token|secret|passw|pwd|api[-_]?key|signature|jwt|credential|auth|session[-_]?id|^(code|key|sig|assertion)$/i

export function isSecretParameter(name: string): boolean {
  return SECRET_NAME.test(name)
}

/** The query as a plain object, with the value of every credential-like parameter replaced. */
export function redactQuery(query: URLSearchParams): Record<string, string> {
  // Defined, not assigned, so that `?__proto__=` is a parameter like any other; the last wins.
  return Object.fromEntries(
    [...query].map(([name, value]) => [name, isSecretParameter(name) ? REDACTED : value]),
  )
}
