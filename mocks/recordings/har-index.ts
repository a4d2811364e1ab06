/**
 * @module
 * A quick index of a HAR document's entries, for replay to load a large recording fast.
 * Each entry's request is found by searching the text for the key `"request"` (then its
 * `"method"` and `"url"`) with the engine's native substring search, which skips over
 * everything in between instead of reading it a character at a time.
 *
 * The search trusts that a key named `request` belongs to an entry, as in every HAR
 * file tools write. Each entry read is confirmed: its bounds are found by reading the
 * structure around it, it must parse, hold that request, and follow the entry before
 * it. When anything does not hold, `StaleRecordingIndex` is thrown and the caller
 * indexes the file by reading all of its structure instead (`scanHar`).
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
import { StaleRecordingIndex } from './recordings.ts'
import { routeHash, routeHashInPlace } from './route-hash.ts'

export interface QuickHarIndex {
  /** `routeHash` of each entry's method and path, in file order. */
  readonly routes: readonly number[]
  /** The JSON text of entry `k`, confirmed; throws `StaleRecordingIndex` when it is not. */
  entryText(k: number): string
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++
  return at
}

/** Whether the character at `at` is escaped by the backslashes before it. */
function isEscaped(text: string, at: number): boolean {
  let count = 0
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) count++
  return count % 2 === 1
}

/** The index after the string that opens at `quote`, or -1. */
function stringEnd(text: string, quote: number): number {
  let at = quote + 1
  for (;;) {
    const next = text.indexOf('"', at)
    if (next === -1) return -1
    if (!isEscaped(text, next)) return next + 1
    at = next + 1
  }
}

/** The index after the JSON value that starts at `at`, or -1. Brackets are only counted. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at)
  if (first === QUOTE) return stringEnd(text, at)
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let end = at
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end)
      if (code === COMMA || code === CLOSE_OBJECT || code === CLOSE_ARRAY || isSpace(code)) break
    }
    return end > at ? end : -1
  }
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      const end = stringEnd(text, i)
      if (end === -1) return -1
      i = end - 1
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** Characters that are not ASCII: in a text of one character per byte, part of a UTF-8 one. */
export const NOT_ASCII = /[\u0080-\uffff]/

/**
 * The value of the JSON string at `at`, or `undefined` when there is none; escapes and
 * characters that are not ASCII are read from `decode`d text.
 */
function stringAt(text: string, at: number, decode?: Decode): string | undefined {
  if (text.charCodeAt(at) !== QUOTE) return undefined
  const end = stringEnd(text, at)
  if (end === -1) return undefined
  const raw = text.slice(at + 1, end - 1)
  if (!raw.includes('\\') && !NOT_ASCII.test(raw)) return raw
  try {
    return JSON.parse(decode ? decode(at, end) : text.slice(at, end)) as string
  } catch {
    return undefined
  }
}

/**
 * `routeHashInPlace` of the JSON strings that open at `methodAt` and `urlAt`, or
 * `undefined` (the caller then reads them as strings).
 */
function routeHashAt(text: string, methodAt: number, urlAt: number): number | undefined {
  if (text.charCodeAt(methodAt) !== QUOTE || text.charCodeAt(urlAt) !== QUOTE) return undefined
  // An escaped quote ends a range early; the backslash before it sends the caller to strings.
  const methodEnd = text.indexOf('"', methodAt + 1)
  const urlEnd = text.indexOf('"', urlAt + 1)
  if (methodEnd === -1 || urlEnd === -1) return undefined
  return routeHashInPlace(
    (at) => text.charCodeAt(at),
    [methodAt + 1, methodEnd],
    [urlAt + 1, urlEnd],
  )
}

/** The text of `[start, end)` of the document, decoded. */
export type Decode = (start: number, end: number) => string

/**
 * From a member's key at `key` (its opening quote), the index after the object that
 * holds it, reading member by member; -1 when the text there is not an object's members.
 */
function objectEnd(text: string, key: number): number {
  let at = key
  for (;;) {
    const keyEnd = text.charCodeAt(at) === QUOTE ? stringEnd(text, at) : -1
    if (keyEnd === -1) return -1
    const colon = skipSpace(text, keyEnd)
    if (text.charCodeAt(colon) !== COLON) return -1
    const end = valueEnd(text, skipSpace(text, colon + 1))
    if (end === -1) return -1
    const next = skipSpace(text, end)
    const code = text.charCodeAt(next)
    if (code === CLOSE_OBJECT) return next + 1
    if (code !== COMMA) return -1
    at = skipSpace(text, next + 1)
  }
}

/** Where the value of the next key `"name"` from `from` (before `limit`) starts, or -1. */
function valueOfKey(text: string, quoted: string, from: number, limit: number): number {
  let at = from
  for (;;) {
    const hit = text.indexOf(quoted, at)
    if (hit === -1 || hit >= limit) return -1
    if (!isEscaped(text, hit)) {
      const colon = skipSpace(text, hit + quoted.length)
      if (text.charCodeAt(colon) === COLON) return skipSpace(text, colon + 1)
    }
    at = hit + 1
  }
}

/** The index of the `[` of `log.entries`, read from the start of the document, or -1. */
function entriesStart(text: string): number {
  let at = skipSpace(text, 0)
  if (text.charCodeAt(at) !== OPEN_OBJECT) return -1
  let wanted = 'log'
  at = skipSpace(text, at + 1)
  for (;;) {
    const name = stringAt(text, at)
    if (name === undefined) return -1
    const colon = skipSpace(text, stringEnd(text, at))
    if (text.charCodeAt(colon) !== COLON) return -1
    const value = skipSpace(text, colon + 1)
    if (name === wanted && wanted === 'log' && text.charCodeAt(value) === OPEN_OBJECT) {
      wanted = 'entries'
      at = skipSpace(text, value + 1)
      continue
    }
    if (name === wanted && text.charCodeAt(value) === OPEN_ARRAY) return value
    const end = valueEnd(text, value)
    if (end === -1) return -1
    const next = skipSpace(text, end)
    if (text.charCodeAt(next) !== COMMA) return -1
    at = skipSpace(text, next + 1)
  }
}

/** Where each key `"request"` whose value is an object starts, from `array` on. */
function requestKeys(text: string, array: number): number[] {
  const keys: number[] = []
  for (let at = array; ; ) {
    const hit = text.indexOf('"request"', at)
    if (hit === -1) break
    at = hit + 9
    if (isRequestKey(text, hit)) keys.push(hit)
  }
  return keys
}

/** Whether a key `"request"` whose value is an object starts at `hit`. */
function isRequestKey(text: string, hit: number): boolean {
  if (isEscaped(text, hit)) return false
  const colon = skipSpace(text, hit + 9)
  return (
    text.charCodeAt(colon) === COLON && text.charCodeAt(skipSpace(text, colon + 1)) === OPEN_OBJECT
  )
}

/** The first key `"request"` at or after `from`, or -1. */
function requestKeyAfter(text: string, from: number): number {
  for (let at = from; ; at++) {
    const hit = text.indexOf('"request"', at)
    if (hit === -1 || isRequestKey(text, hit)) return hit
    at = hit
  }
}

/** The last key `"request"` before `before`, or -1. */
function requestKeyBefore(text: string, before: number): number {
  for (let at = before - 1; at >= 0; at--) {
    const hit = text.lastIndexOf('"request"', at)
    if (hit === -1 || isRequestKey(text, hit)) return hit
    at = hit
  }
  return -1
}

/**
 * The entries of the HAR document `text` as the texts of JSON arrays of consecutive
 * entries, about `size` characters each, and the document with `log.entries` emptied
 * (`envelope`): for a reader that parses a large recording a part at a time, so that it
 * never holds all of it parsed. `undefined` when the document does not look like a HAR
 * this way.
 *
 * Only the parts' bounds are read from the structure, as the quick index reads an
 * entry's (from a request key to the end of the entry that holds it), a few dozen times
 * for a large file. The caller confirms the rest: every part, and the envelope, must
 * parse; otherwise it parses the whole document, which says exactly what is wrong. A
 * part cut anywhere but between two entries cannot parse as an array, so parts that all
 * parse, joined by the commas checked here, are exactly the array's entries.
 */
export function harEntryChunks(
  text: string,
  size: number,
): { chunks: string[]; envelope: string } | undefined {
  const array = entriesStart(text)
  if (array === -1) return undefined
  const first = skipSpace(text, array + 1)
  if (text.charCodeAt(first) === CLOSE_ARRAY) {
    return { chunks: [], envelope: `${text.slice(0, array)}[]${text.slice(first + 1)}` }
  }
  if (text.charCodeAt(first) !== OPEN_OBJECT) return undefined
  // The array ends after the entry that holds the last request.
  const lastKey = requestKeyBefore(text, text.length)
  const lastEnd = lastKey > first ? objectEnd(text, lastKey) : -1
  if (lastEnd === -1) return undefined
  const close = skipSpace(text, lastEnd)
  if (text.charCodeAt(close) !== CLOSE_ARRAY) return undefined
  const chunks: string[] = []
  let start = first
  for (let target = first + size; target < lastEnd; target += size) {
    // The entry holding the next request key starts after the entry holding the one
    // before it, across one comma.
    const key = requestKeyAfter(text, target)
    const before = key === -1 ? -1 : requestKeyBefore(text, key)
    if (before <= start) continue
    const end = objectEnd(text, before)
    if (end === -1 || end > key) continue
    const comma = skipSpace(text, end)
    if (text.charCodeAt(comma) !== COMMA) continue
    const next = skipSpace(text, comma + 1)
    if (text.charCodeAt(next) !== OPEN_OBJECT || next > key) continue
    chunks.push(`[${text.slice(start, end)}]`)
    start = next
    target = Math.max(target, next)
  }
  chunks.push(`[${text.slice(start, lastEnd)}]`)
  return { chunks, envelope: `${text.slice(0, array)}[]${text.slice(close + 1)}` }
}

/**
 * The quick index of the HAR document `text`, or `undefined` when it does not look like
 * one this way (no `log.entries`, a request without method or absolute URL...): the
 * caller then reads its whole structure, which says exactly what is wrong.
 *
 * `text` may hold a character per byte of a UTF-8 file (its structure and ASCII read
 * the same), with `decode` giving the real text of a range: entries and the strings that
 * are not plain ASCII are read through it.
 */
export function quickIndexHar(
  text: string,
  decode: Decode = (start, end) => text.slice(start, end),
): QuickHarIndex | undefined {
  const array = entriesStart(text)
  if (array === -1) return undefined
  const keys = requestKeys(text, array)
  // No entry (or none found this way): the full read is as quick and checks the whole file.
  if (keys.length === 0) return undefined
  const routes: number[] = new Array(keys.length)
  for (let k = 0; k < keys.length; k++) {
    const limit = keys[k + 1] ?? text.length
    const methodAt = valueOfKey(text, '"method"', keys[k]!, limit)
    const urlAt = valueOfKey(text, '"url"', keys[k]!, limit)
    const quick = routeHashAt(text, methodAt, urlAt)
    if (quick !== undefined) {
      routes[k] = quick
      continue
    }
    const method = stringAt(text, methodAt, decode)
    const url = stringAt(text, urlAt, decode)
    const path = url === undefined ? undefined : splitRecordedUrl(url)?.path
    if (method === undefined || path === undefined) return undefined
    routes[k] = routeHash(method, path)
  }
  const entries = confirmer(text, array, keys, decode)
  return entries.endHolds() ? { routes, entryText: entries.read } : undefined
}

/**
 * From `at`, just after the value of a member of an object, the index after that object
 * (reading the members left), or -1.
 */
function restOfObject(text: string, at: number): number {
  const next = skipSpace(text, at)
  const code = text.charCodeAt(next)
  if (code === CLOSE_OBJECT) return next + 1
  return code === COMMA ? objectEnd(text, skipSpace(text, next + 1)) : -1
}

/**
 * Reads and confirms entries: each one's bounds from the structure around its request
 * key; and, in file order as far as bounds are known, that each entry follows the one
 * before it (the first follows the `[`, the last is followed by `]`).
 */
function confirmer(text: string, array: number, keys: readonly number[], decode: Decode) {
  const starts = new Int32Array(keys.length).fill(-1)
  const ends = new Int32Array(keys.length).fill(-1)
  /** Entries `0..chained` are confirmed to follow one another. */
  let chained = -1

  function bounds(k: number): void {
    if (starts[k] !== -1) return
    const key = keys[k]!
    // The entry before ends where its request's object ends; this one starts after the comma.
    let start: number
    if (k === 0) start = skipSpace(text, array + 1)
    else {
      const previous = ends[k - 1] !== -1 ? ends[k - 1]! : objectEnd(text, keys[k - 1]!)
      const comma = previous === -1 ? -1 : skipSpace(text, previous)
      if (comma === -1 || text.charCodeAt(comma) !== COMMA) throw new StaleRecordingIndex(`#${k}`)
      start = skipSpace(text, comma + 1)
    }
    const end = text.charCodeAt(start) === OPEN_OBJECT ? valueEnd(text, start) : -1
    if (end === -1 || key < start || key >= end || objectEnd(text, key) !== end) {
      throw new StaleRecordingIndex(`#${k}`)
    }
    if (k + 1 < keys.length && keys[k + 1]! < end) throw new StaleRecordingIndex(`#${k + 1}`)
    starts[k] = start
    ends[k] = end
  }

  function chain(): void {
    while (chained + 1 < keys.length && starts[chained + 1] !== -1) {
      const next = chained + 1
      const before = next === 0 ? array + 1 : ends[chained]!
      let at = skipSpace(text, before)
      if (next > 0) {
        if (text.charCodeAt(at) !== COMMA) throw new StaleRecordingIndex(`#${next}`)
        at = skipSpace(text, at + 1)
      }
      if (at !== starts[next]) throw new StaleRecordingIndex(`#${next}`)
      chained = next
    }
    if (chained === keys.length - 1 && chained >= 0) {
      if (text.charCodeAt(skipSpace(text, ends[chained]!)) !== CLOSE_ARRAY) {
        throw new StaleRecordingIndex('the end of log.entries')
      }
    }
  }

  return {
    read(k: number): string {
      bounds(k)
      chain()
      return decode(starts[k]!, ends[k]!)
    },

    /**
     * Whether the document ends as it should after the last entry: `]`, the rest of
     * `log`, the rest of the document, and nothing after it. A file cut short is caught
     * here, at load.
     */
    endHolds(): boolean {
      const last = keys.length - 1
      try {
        bounds(last)
      } catch {
        return false
      }
      const close = skipSpace(text, ends[last]!)
      if (text.charCodeAt(close) !== CLOSE_ARRAY) return false
      const log = restOfObject(text, close + 1)
      const document = log === -1 ? -1 : restOfObject(text, log)
      return document !== -1 && skipSpace(text, document) === text.length
    },
  }
}
