/**
 * @module
 * Finds the entries of a HAR document in its JSON bytes without parsing it: where each
 * entry starts and ends, and its request's method and URL. Only the structure is read
 * (brackets, strings, the keys of `log`, `log.entries`, an entry and its `request`), so
 * a syntax error inside an entry is found when the entry is parsed. Replay uses the
 * quicker `har-index.ts` first, and this reading when that index does not hold.
 */
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './json-chars.ts'
import { splitRecordedUrl } from './recorded-url.ts'
import { routeHash, routeHashInPlace } from './route-hash.ts'

/** One entry of `log.entries`: its byte range and the hash of its route. */
export interface ScannedEntry {
  start: number
  end: number
  /** `routeHash(method, path)` of its request, without making strings of them. */
  route: number
}

/** The keys the scan follows, as byte sequences. */
const KEYS = {
  log: new TextEncoder().encode('log'),
  entries: new TextEncoder().encode('entries'),
  request: new TextEncoder().encode('request'),
  method: new TextEncoder().encode('method'),
  url: new TextEncoder().encode('url'),
}

function isKey(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key[i]) return false
  return true
}

const decoder = new TextDecoder()

/** The value of the JSON string token `bytes[start..end)` (quotes included). */
function stringValue(bytes: Uint8Array, start: number, end: number): string {
  return JSON.parse(decoder.decode(bytes.subarray(start, end))) as string
}

/**
 * `routeHash` of a request from the JSON string tokens of its method and URL: read from
 * the bytes in place, or decoded first when they hold escapes or other characters.
 * `undefined` when the URL is not absolute.
 */
function tokenRouteHash(
  bytes: Uint8Array,
  method: readonly [number, number],
  url: readonly [number, number],
): number | undefined {
  const inPlace = routeHashInPlace(
    (at) => bytes[at]!,
    [method[0] + 1, method[1] - 1],
    [url[0] + 1, url[1] - 1],
  )
  if (inPlace !== undefined) return inPlace
  const path = splitRecordedUrl(stringValue(bytes, url[0], url[1]))?.path
  return path === undefined ? undefined : routeHash(stringValue(bytes, method[0], method[1]), path)
}

/** Deeper than this, the scan gives up (the caller then parses the document in full). */
const MAX_DEPTH = 512

/**
 * The entries of the HAR document in `bytes`, or `undefined` when the bytes are not a
 * HAR document this scan can index: no `log.entries` array, an entry that is not an
 * object or has no `request.method` and `request.url` strings, or brackets and strings
 * that do not balance. The caller then parses the document in full, which says exactly
 * what is wrong.
 */
export function scanHar(bytes: Uint8Array): ScannedEntry[] | undefined {
  const length = bytes.length
  /** 1 for an object, 2 for an array, by depth (1 is the document). */
  const kinds = new Uint8Array(MAX_DEPTH + 1)
  let depth = 0
  let expectKey = false
  /** The last key read at depths 1 (document), 2 (log), 4 (entry) and 5 (request). */
  let key: Uint8Array | undefined
  let inLog = false
  let inEntries = false
  let inRequest = false
  let entries: ScannedEntry[] | undefined
  let entryStart = 0
  let method: [number, number] | undefined
  let url: [number, number] | undefined
  let seenRoot = false

  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!
    if (byte === QUOTE) {
      const start = i
      for (i++; i < length; i++) {
        const inner = bytes[i]
        if (inner === BACKSLASH) i++
        else if (inner === QUOTE) break
      }
      if (i >= length || depth === 0) return undefined
      if (depth > 5) continue
      if (expectKey) {
        expectKey = false
        const name = start + 1
        if (depth === 1) key = isKey(bytes, name, i, KEYS.log) ? KEYS.log : undefined
        else if (depth === 2) key = isKey(bytes, name, i, KEYS.entries) ? KEYS.entries : undefined
        else if (depth === 4) key = isKey(bytes, name, i, KEYS.request) ? KEYS.request : undefined
        else if (depth === 5 && inRequest) {
          key = isKey(bytes, name, i, KEYS.method)
            ? KEYS.method
            : isKey(bytes, name, i, KEYS.url)
              ? KEYS.url
              : undefined
        }
      } else if (depth === 5 && inRequest) {
        if (key === KEYS.method) method = [start, i + 1]
        else if (key === KEYS.url) url = [start, i + 1]
      }
      continue
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) {
        if (seenRoot || byte !== OPEN_OBJECT) return undefined
        seenRoot = true
      }
      if (depth === MAX_DEPTH) return undefined
      if (depth === 1 && byte === OPEN_OBJECT && key === KEYS.log) inLog = true
      else if (depth === 2 && inLog && byte === OPEN_ARRAY && key === KEYS.entries) {
        inEntries = true
        entries = []
      } else if (depth === 3 && inEntries) {
        if (byte !== OPEN_OBJECT) return undefined
        entryStart = i
        method = undefined
        url = undefined
      } else if (depth === 4 && inEntries && byte === OPEN_OBJECT && key === KEYS.request) {
        inRequest = true
      }
      depth++
      kinds[depth] = byte === OPEN_OBJECT ? 1 : 2
      expectKey = byte === OPEN_OBJECT
      key = undefined
      continue
    }
    if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 0 || kinds[depth] !== (byte === CLOSE_OBJECT ? 1 : 2)) return undefined
      depth--
      if (depth === 4) inRequest = false
      else if (depth === 3 && inEntries) {
        const route = method && url && tokenRouteHash(bytes, method, url)
        if (route === undefined) return undefined
        entries!.push({ start: entryStart, end: i + 1, route })
      } else if (depth === 2) inEntries = false
      else if (depth === 1) inLog = false
      expectKey = false
      continue
    }
    if (byte === COMMA) {
      expectKey = kinds[depth] === 1
      if (depth === 3 && inEntries) continue
      if (depth <= 5) key = undefined
    } else if (byte === COLON) {
      // The key stays until the value is read.
    } else if (byte > 0x20 && (depth === 0 || (depth === 3 && inEntries))) {
      // Something after the document, or a number, `true`, `null`... where an entry belongs.
      return undefined
    }
  }
  return depth === 0 && seenRoot ? entries : undefined
}
