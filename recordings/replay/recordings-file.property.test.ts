/**
 * A replay of a HAR file's bytes against a replay of the parsed document, on generated
 * HAR files: whatever the entries hold (bodies quoting `"request"` keys, escapes, text
 * that is not ASCII, a tool's own fields with `"request"` objects, any indentation), it
 * answers every request exactly as the parsed document does.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toolField, withToolField } from '../../test-support/recordings/test-recordings.ts'
import { createHar, createHarEntry, type HarEntry } from '../har.ts'
import { recordingsFile } from './read-file.ts'
import { createReplay, type ReplayRequest } from './replay.ts'

const text = fc.string({
  unit: fc.constantFrom(
    'a',
    'é',
    '☕',
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    ' ',
    'request',
    '"request":{',
    '"method":"GET"',
    '"url":"http://x/"',
  ),
})

const entryArbitrary = fc.record({
  method: fc.constantFrom('GET', 'POST', 'delete'),
  path: fc.constantFrom('/a', '/b', '/caf%C3%A9', '/users/u1/follow'),
  query: fc.constantFrom('', '?dryRun=true', '?q=%22x%22'),
  requestBody: fc.option(text, { nil: undefined }),
  responseBody: text,
  status: fc.constantFrom(200, 201, 404),
  /** A tool's own field holding `"request"` objects, before or after the request. */
  extra: toolField,
  extraFirst: fc.boolean(),
})

type GeneratedEntry = typeof entryArbitrary extends fc.Arbitrary<infer T> ? T : never

function harEntry(generated: GeneratedEntry): HarEntry {
  const entry = createHarEntry({
    method: generated.method,
    url: `http://staging.test${generated.path}${generated.query}`,
    requestHeaders: { 'x-note': 'request' },
    requestBody: generated.requestBody ?? null,
    status: generated.status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: generated.responseBody,
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })
  return withToolField(entry, generated.extra, generated.extraFirst)
}

function requestOf(generated: GeneratedEntry): ReplayRequest {
  return {
    method: generated.method,
    path: generated.path,
    query: new URLSearchParams(generated.query),
    body: generated.requestBody ?? '',
    session: 'default',
  }
}

describe('replay of a HAR file from its bytes', () => {
  it('answers every request as the parsed document does', () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(undefined, 1, 2, '\t'),
        (generated, indent) => {
          const har = createHar(generated.map(harEntry))
          const written = JSON.stringify(har, null, indent)
          const fromFile = createReplay({
            recordings: recordingsFile('generated.har', new TextEncoder().encode(written)),
          })
          const fromDocument = createReplay({ recordings: JSON.parse(written) })
          // Every request twice: the recorded order, then the last answer repeating.
          for (const entry of [...generated, ...generated]) {
            expect(fromFile.answer(requestOf(entry))).toEqual(fromDocument.answer(requestOf(entry)))
          }
          expect(fromFile.recordings).toEqual(fromDocument.recordings)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps each sequence’s place when a tool field before an entry’s request holds a request', () => {
    // Found by the property above: a field before the entry's own request holds a
    // `"request"` object, which a reader of the text must not take for the entry's.
    const generated: GeneratedEntry[] = [
      { method: 'delete', path: '/b', query: '?dryRun=true', status: 200, responseBody: '' },
      {
        method: 'GET',
        path: '/a',
        query: '',
        status: 200,
        responseBody: '',
        extra: { _from: { request: { method: 'GET', url: 'http://staging.test/a' } } },
        extraFirst: true,
      },
      { method: 'delete', path: '/b', query: '?dryRun=true', status: 404, responseBody: '' },
    ] as GeneratedEntry[]
    const written = JSON.stringify(createHar(generated.map(harEntry)))
    const fromFile = createReplay({
      recordings: recordingsFile('fooled.har', new TextEncoder().encode(written)),
    })
    expect(generated.map((entry) => fromFile.answer(requestOf(entry))?.status)).toEqual([
      200, 200, 404,
    ])
  })
})
