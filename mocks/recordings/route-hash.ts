/**
 * @module
 * The replay's index key of a request: a hash of its method and path, computed alike
 * from a request and from a recording (parsed, or read from a file's bytes).
 */

export const FNV_OFFSET = 0x811c9dc5
export const FNV_PRIME = 0x01000193
export const SPACE = 0x20

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

export const upper = (code: number) => (code >= 0x61 && code <= 0x7a ? code - 0x20 : code)
