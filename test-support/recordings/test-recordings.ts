/**
 * @module
 * Test helpers for recordings: a HAR entry of a JSON exchange, a replay request, and the
 * fields other tools add to an entry, for property tests.
 */
import fc from 'fast-check'
import { createHarEntry, type HarEntry } from '../../recordings/har.ts'
import type { ReplayRequest } from '../../recordings/replay/replay.ts'

/** A HAR entry answering `method url` with 200 and the JSON `body` (a request header named `request`). */
export function jsonEntry(method: string, url: string, body = '{"ok":true}', requestBody?: string) {
  return createHarEntry({
    method,
    url,
    requestHeaders: { 'x-note': 'request' },
    requestBody,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: body,
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })
}

/** A `GET path` with no query and no body, in the default session, for `replay.answer`. */
export const replayGet = (path: string): ReplayRequest => ({
  method: 'GET',
  path,
  query: new URLSearchParams(),
  body: '',
  session: 'default',
})

/**
 * A tool's own field on an entry that holds `"request"` objects, or quotes one, or none:
 * what a quick reading of a HAR's text must not take for the entry's request.
 */
export const toolField = fc.option(
  fc.constantFrom(
    { _from: { request: { method: 'GET', url: 'http://staging.test/a' } } },
    { _redirects: [{ request: { method: 'POST', url: 'http://staging.test/b' } }] },
    { _note: '"request":{"method":"GET","url":"http://staging.test/a"}' },
  ),
  { nil: undefined },
)

/** `entry` with the tool's field `extra`, before its own fields (`first`) or after them. */
export function withToolField(
  entry: HarEntry,
  extra: object | undefined,
  first: boolean,
): HarEntry {
  if (!extra) return entry
  return (first ? { ...extra, ...entry } : { ...entry, ...extra }) as HarEntry
}
