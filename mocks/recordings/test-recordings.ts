/**
 * @module
 * Test helpers for recordings: a HAR entry of a JSON exchange, and a replay request.
 */
import { createHarEntry } from './har.ts'
import type { ReplayRequest } from './replay.ts'

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
