/**
 * @module
 * The replay's index key of a request: a hash of its method and path, computed alike
 * from a request and from a recording (parsed, or read from a file's bytes).
 */
import { BACKSLASH, COLON } from './json-chars.ts'

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const SPACE = 0x20

/**
 * A 32-bit FNV-1a hash of `METHOD path` (the method in upper case): the replay's index
 * key, computed alike from a request and from a recording's bytes. Equal hashes are
 * confirmed on the parsed recording, so a collision costs a parse, never a wrong answer.
 */
export function routeHash(method: string, path: string): number {
  let hash = FNV_OFFSET
  for (let i = 0; i < method.length; i++) {
    hash = Math.imul(hash ^ upper(method.charCodeAt(i)), FNV_PRIME)
  }
  hash = Math.imul(hash ^ SPACE, FNV_PRIME)
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), FNV_PRIME)
  return hash >>> 0
}

const upper = (code: number) => (code >= 0x61 && code <= 0x7a ? code - 0x20 : code)

const SLASH = 0x2f
const QUESTION = 0x3f
const HASH = 0x23

/**
 * `routeHash` of a method and of the path of a URL, read in place from JSON text without
 * making strings of them: `codeAt(i)` is the text's code unit (or byte) at `i`, and each
 * range is a JSON string's contents, without its quotes. The path is cut as
 * `splitRecordedUrl` cuts it. `undefined` when a range holds an escape or a character that
 * is not ASCII, or the URL is not absolute: the caller then decodes the strings and uses
 * `routeHash` with `splitRecordedUrl`, which handles every case.
 */
export function routeHashInPlace(
  codeAt: (at: number) => number,
  method: readonly [start: number, end: number],
  url: readonly [start: number, end: number],
): number | undefined {
  let hash = FNV_OFFSET
  for (let i = method[0]; i < method[1]; i++) {
    const code = codeAt(i)
    if (code === BACKSLASH || code >= 0x80) return undefined
    hash = Math.imul(hash ^ upper(code), FNV_PRIME)
  }
  hash = Math.imul(hash ^ SPACE, FNV_PRIME)
  let scheme = -1
  for (let i = url[0]; i < url[1]; i++) {
    const code = codeAt(i)
    if (code === BACKSLASH || code >= 0x80) return undefined
    const isScheme = code === COLON && i + 2 < url[1] && codeAt(i + 1) === SLASH
    if (scheme === -1 && isScheme && codeAt(i + 2) === SLASH) scheme = i
  }
  if (scheme === -1 || scheme === url[0]) return undefined
  // From the first `/` after the scheme (`/` when none) to `?`, `#` or the end.
  let at = scheme + 3
  while (at < url[1] && codeAt(at) !== SLASH) at++
  if (at === url[1]) return Math.imul(hash ^ SLASH, FNV_PRIME) >>> 0
  for (; at < url[1]; at++) {
    const code = codeAt(at)
    if (code === QUESTION || code === HASH) break
    hash = Math.imul(hash ^ code, FNV_PRIME)
  }
  return hash >>> 0
}
