/**
 * Reading a HAR file's text against reading it parsed: whatever the entries hold (bodies
 * quoting `"request"` keys, a tool's own fields with `"request"` objects, text that is not
 * ASCII, any indentation, hundreds of entries), the exchanges are the same, each entry's
 * its own; and text that is not JSON, or not a HAR, fails with the very error parsing it
 * whole gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHar, createHarEntry, type HarEntry } from '../../../recordings/har.ts'
import { RecordingsFormatError } from '../../../recordings/replay/recordings.ts'
import { toolField, withToolField } from '../../../test-support/recordings/test-recordings.ts'
import { operations } from '../../operations/table.ts'
import { type LearnExchange, type ReadExchanges, readExchanges, readHarText } from './exchanges.ts'

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
    '"request":{',
  ),
})

const entryArbitrary = fc.record({
  method: fc.constantFrom('GET', 'POST', 'post'),
  path: fc.constantFrom(
    '/payprov/account-status',
    '/bookings/bkg_1/decline',
    '/notifications/ntf_%C3%A9/archive',
    '/index.html',
  ),
  query: fc.constantFrom('', '?dryRun=true'),
  requestBody: fc.option(text, { nil: undefined }),
  authorization: fc.option(fc.constantFrom('Bearer [REDACTED sub=usr_host]', 'Bearer x.y.z'), {
    nil: undefined,
  }),
  responseBody: text,
  status: fc.constantFrom(200, 201, 404, 409),
  extra: toolField,
  extraFirst: fc.boolean(),
})

type GeneratedEntry = typeof entryArbitrary extends fc.Arbitrary<infer T> ? T : never

function harEntry(generated: GeneratedEntry): HarEntry {
  const entry = createHarEntry({
    method: generated.method,
    url: `http://staging.test${generated.path}${generated.query}`,
    requestHeaders: {
      'content-type': 'application/json',
      ...(generated.authorization ? { authorization: generated.authorization } : {}),
    },
    requestBody: generated.requestBody ?? null,
    status: generated.status,
    responseHeaders: { 'content-type': 'application/json', 'set-cookie': 'a=1; Path=/' },
    responseBody: generated.responseBody,
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })
  return withToolField(entry, generated.extra, generated.extraFirst)
}

/** What reading `written` gives, or the error it throws, as plain data to compare. */
function outcome(read: () => unknown): unknown {
  try {
    return read()
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message }
  }
}

/** Where the `n`-th (from 0) `part` of `text` starts. */
function nth(text: string, part: string, n: number): number {
  let at = -1
  for (let k = 0; k <= n; k++) at = text.indexOf(part, at + 1)
  return at
}

const parsedWhole = (written: string) => () => readExchanges(JSON.parse(written), operations)
/** `readHarText` with every exchange it gave, those of an attempt started over left out. */
function readCollected(written: string): ReadExchanges {
  let exchanges: LearnExchange[] = []
  const summary = readHarText(written, operations, () => {
    exchanges = []
    return (part) => exchanges.push(...part)
  })
  return { ...summary, exchanges }
}
const readAsText = (written: string) => () => readCollected(written)

/** Whether the entry is one of the API's operations: only GET reads the account status. */
const isOperation = (entry: GeneratedEntry) =>
  entry.path === '/payprov/account-status'
    ? entry.method === 'GET'
    : entry.path !== '/index.html' && entry.method.toUpperCase() === 'POST'

describe('reading the text of a HAR file', () => {
  it('gives the exchanges reading it parsed gives, whatever the entries and indentation', () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(undefined, 1, 2, '\t'),
        (generated, repeat, indent) => {
          const entries = Array.from({ length: repeat }, () => generated.map(harEntry)).flat()
          const written = JSON.stringify(createHar(entries), null, indent)
          expect(outcome(readAsText(written))).toEqual(outcome(parsedWhole(written)))
        },
      ),
      { numRuns: 150 },
    )
  })

  it('reads each entry as its own, whatever "request" objects its tool fields hold', () => {
    fc.assert(
      fc.property(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(undefined, 2),
        (generated, indent) => {
          const har = createHar(generated.map(harEntry))
          const read = readCollected(JSON.stringify(har, null, indent))
          expect(read.total).toBe(generated.length)
          // Every entry on an operation's path is an exchange, with its own request and answer.
          const operated = generated.flatMap((entry, index) =>
            isOperation(entry) ? [{ entry, index }] : [],
          )
          expect(
            read.exchanges.map(({ index, path, search, status, answer }) => ({
              index,
              path,
              search,
              status,
              answer,
            })),
          ).toEqual(
            operated.map(({ entry, index }) => ({
              index,
              path: entry.path,
              search: entry.query,
              status: entry.status,
              answer: entry.responseBody,
            })),
          )
          expect(read.exchanges.map((exchange) => exchange.headers.authorization)).toEqual(
            operated.map(({ entry }) => entry.authorization),
          )
          expect(read.others).toHaveLength(generated.length - operated.length)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('fails as parsing it whole fails: text cut short, text that is not JSON, not a HAR', () => {
    const entries = Array.from({ length: 450 }, (_, i) =>
      harEntry({
        method: 'POST',
        path: '/bookings/bkg_1/decline',
        query: '?dryRun=true',
        requestBody: `{"reason":"r${i}"}`,
        authorization: 'Bearer [REDACTED sub=usr_host]',
        responseBody: '{}',
        status: 201,
        extra: undefined,
        extraFirst: false,
      }),
    )
    const written = JSON.stringify(createHar(entries))
    const broken = [
      written.slice(0, written.length - 3),
      written.slice(0, Math.floor(written.length / 2)),
      written.replace('"version":"1.2"', '"version":1.2.3'),
      // A syntax error in a later part, and a malformed entry there.
      `${written.slice(0, nth(written, '"startedDateTime"', 300))}!${written.slice(nth(written, '"startedDateTime"', 300))}`,
      `${written.slice(0, nth(written, '"status":201', 300))}"status":"x"${written.slice(nth(written, '"status":201', 300) + 12)}`,
      written.replace('"status":201', '"status":"201"'),
      written.replace('"method":"POST"', '"method":7'),
      written.replace('"entries":[', '"entries":{"x":[').replace(/]}}$/, ']}}}'),
      `${written}x`,
    ]
    for (const text of broken) {
      const expected = outcome(parsedWhole(text))
      expect(expected).toHaveProperty('error')
      expect(outcome(readAsText(text))).toEqual(expected)
    }
    expect(outcome(readAsText(broken[5]!))).toEqual({
      error: RecordingsFormatError.name,
      message:
        'not a HAR 1.2 document: log.entries.0.response.status: expected an HTTP status from 100 to 599',
    })
  })

  it('reads 450 entries in order, with the index of each', () => {
    const entries = Array.from({ length: 450 }, (_, i) =>
      harEntry({
        method: 'GET',
        path: i % 2 ? '/payprov/account-status' : '/index.html',
        query: '',
        requestBody: undefined,
        authorization: 'Bearer [REDACTED sub=usr_host]',
        responseBody: `{"n":${i}}`,
        status: 200,
        extra: undefined,
        extraFirst: false,
      }),
    )
    const read = readCollected(JSON.stringify(createHar(entries), null, 2))
    expect(read.total).toBe(450)
    expect(read.exchanges.map((exchange) => exchange.index)).toEqual(
      Array.from({ length: 225 }, (_, k) => 2 * k + 1),
    )
    expect(read.exchanges.map((exchange) => exchange.answer)).toEqual(
      Array.from({ length: 225 }, (_, k) => `{"n":${2 * k + 1}}`),
    )
    expect(read.others).toHaveLength(225)
  })
})
