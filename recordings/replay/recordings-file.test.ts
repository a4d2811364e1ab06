/**
 * Replay of a HAR file from its bytes: each entry found, indexed by the route its URL
 * reads, answered as the parsed document answers; and a file that is not JSON or not a
 * HAR refused at load, naming where.
 */
import { describe, expect, it } from 'vitest'
import { jsonEntry, replayGet } from '../../test-support/recordings/test-recordings.ts'
import { createHar } from '../har.ts'
import { recordingsFile } from './read-file.ts'
import {
  type Recording,
  RecordingsFormatError,
  readRecordings,
  splitRecordedUrl,
} from './recordings.ts'
import { createReplay, type ReplayRequest } from './replay.ts'

/** A body whose text holds `"request": {"method":"GET"}`, escaped, as bodies are in HAR. */
const TRICKY_BODY = '{"note":"\\"request\\": {\\"method\\":\\"GET\\"}"}'

const file = (text: string) => recordingsFile('staging.har', new TextEncoder().encode(text))

/** The request that a recording answers. */
const requestOf = (recording: Recording): ReplayRequest => ({
  method: recording.method,
  path: recording.path,
  query: recording.query,
  body: recording.body,
  session: 'default',
})

/** The message `createReplay` refuses the file `text` with. */
function refusal(text: string): string {
  try {
    createReplay({ recordings: file(text) })
  } catch (error) {
    if (error instanceof RecordingsFormatError) return error.message
    throw error
  }
  throw new Error(`Expected ${text} to be refused`)
}

describe('replay of a HAR file', () => {
  const har = createHar([
    jsonEntry('get', 'http://staging.test/payprov/account-status?verbose=1#top'),
    jsonEntry(
      'POST',
      'https://staging.test:8443/bookings/bkg_1/decline',
      '{"request":{"url":"x"}}',
      TRICKY_BODY,
    ),
    jsonEntry('GET', 'http://staging.test'),
  ])

  it('finds each entry, its route and its answer, compact or indented', () => {
    const recorded = readRecordings(har)
    for (const text of [JSON.stringify(har), JSON.stringify(har, null, 2)]) {
      const replay = createReplay({ recordings: file(text) })
      // Out of order first: each entry is read on its own, when its route is asked for.
      for (const k of [2, 0, 1]) {
        expect(replay.answer(requestOf(recorded[k]!))).toEqual(recorded[k]!.response)
      }
      expect(replay.recordings.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'GET /payprov/account-status',
        'POST /bookings/bkg_1/decline',
        'GET /',
      ])
    }
  })

  it('names each entry by its number and its request as recorded, compact or indented', () => {
    for (const text of [JSON.stringify(har), JSON.stringify(har, null, 2)]) {
      const replay = createReplay({ recordings: file(text) })
      expect(replay.recordings.map((recording) => recording.name)).toEqual([
        '#1 GET /payprov/account-status?verbose=1',
        '#2 POST /bookings/bkg_1/decline',
        '#3 GET /',
      ])
      expect(replay.recordings).toEqual(readRecordings(har))
    }
  })

  it('indexes each route as the recorded URL reads, whatever the URL holds', () => {
    const urls = [
      'http://staging.test',
      'http://staging.test?next=/bookings/bkg_1',
      'http://staging.test/a?b=/c#d',
      'http://staging.test/a#b?c',
      'https://user@staging.test:8443/users/usr_1/follow/',
      'http://staging.test/caf\u00e9/x',
      'http://staging.test/café/x',
      'http://staging.test/a%2Fb',
      'http://x.test/path://y',
    ]
    // As written, whatever the entry's maker did to them.
    const entries = urls.map((url, i) => {
      const entry = jsonEntry('post', 'http://placeholder.test/', `{"i":${i}}`)
      return { ...entry, request: { ...entry.request, url: JSON.parse(`"${url}"`) as string } }
    })
    const recorded = readRecordings(createHar(entries))
    for (const text of [
      JSON.stringify(createHar(entries)),
      JSON.stringify(createHar(entries), null, 1),
    ]) {
      const replay = createReplay({ recordings: file(text) })
      expect(replay.recordings.map((recording) => recording.path)).toEqual(
        entries.map((entry) => splitRecordedUrl(entry.request.url)!.path),
      )
      const fresh = createReplay({ recordings: file(text) })
      expect(recorded.map((recording) => fresh.answer(requestOf(recording)))).toEqual(
        recorded.map((recording) => recording.response),
      )
    }
  })

  it('refuses a file that is not a HAR at load, naming what is wrong, and loads one of no entries', () => {
    const text = JSON.stringify(har)
    expect(refusal(text.slice(0, -3))).toMatch(/^staging\.har: is not valid JSON \(/)
    expect(refusal(`${text} trailing`)).toMatch(
      /^staging\.har: is not valid JSON \(Unexpected non-whitespace character after JSON at position \d+ \(line 1 column \d+\)\)$/,
    )
    expect(createReplay({ recordings: file('{"log":{"entries":[]}}') }).size).toBe(0)
    expect(
      refusal('{"examples":{"a":{"request":{"method":"GET","url":"http://a.test/"}}}}'),
    ).toMatch(/^staging\.har: not an examples file: /)
    expect(refusal('{"log":{"entries":[{"request":{"method":"GET"}}]}}')).toBe(
      'staging.har: not a HAR 1.2 document: log.entries.0.request.url: expected a string',
    )
    expect(refusal('{"log":{"entries":[{"request":{"method":"GET","url":"/relative"}}]}}')).toBe(
      'staging.har: log.entries.0.request.url is not an absolute URL: "/relative"',
    )
    expect(refusal('[]')).toBe(
      'staging.har: neither a HAR document (no "log") nor an examples file (no "examples")',
    )
  })

  it('reads the entries of a file whose tool fields hold "request" objects as the parsed document', () => {
    // A tool's own field holding objects with a "request" key, in the second entry.
    const text = JSON.stringify(har).replace(
      '"request":{"method":"POST"',
      '"_redirects":[{"request":{"method":"GET","url":"http://a.test/"}},{"request":{"method":"GET","url":"http://a.test/"}}],"request":{"method":"POST"',
    )
    const replay = createReplay({ recordings: file(text) })
    expect(replay.size).toBe(3)
    expect(replay.answer(requestOf(readRecordings(har)[0]!))).toEqual(
      readRecordings(har)[0]!.response,
    )
    expect(replay.recordings).toEqual(readRecordings(JSON.parse(text)))
  })

  it('reads escaped and non-ASCII URLs and any key order', () => {
    const text = `{"log":{"entries":[{"response":{"status":200,"headers":[],"content":{"text":"{}"},"request":{"method":"DELETE","url":"http://a.test/no"}},"request":{"url":"http:\\/\\/a.test\\/caf\u00e9\\/x?q=\\"1\\"","method":"P\\u004fST"}}],"version":"1.2"}}`
    const replay = createReplay({ recordings: file(text) })
    expect(replay.size).toBe(1)
    const request = { method: 'POST', path: '/caf\u00e9/x', query: new URLSearchParams('q="1"') }
    expect(replay.answer({ ...request, body: '', session: 'default' })?.body).toBe('{}')
  })

  it('refuses what is not JSON or not a HAR, as parsing it says, and loads an empty one', () => {
    for (const [text, message] of [
      ['{"log": ', /^staging\.har: is not valid JSON \(Unexpected end of JSON input\)$/],
      [
        '{"log":{"entries":[{"request":{"method":"GET","url":"http://a.test/"}}',
        /^staging\.har: is not valid JSON \(/,
      ],
      [
        '{"log":{"entries":[{"request":{"method":"GET","url":"http://a.test/}}]}}',
        /^staging\.har: is not valid JSON \(/,
      ],
      [
        '{"log":{"entries":[1]}}',
        /^staging\.har: not a HAR 1\.2 document: log\.entries\.0\.is not an object$/,
      ],
      [
        '{"log":{"entries":[{"request":{"method":"GET"}}]}}',
        /^staging\.har: not a HAR 1\.2 document: log\.entries\.0\.request\.url: expected a string$/,
      ],
      [
        '{"log":{"entries":[{"request":{"method":"GET","url":"/relative"}}]}}',
        /^staging\.har: log\.entries\.0\.request\.url is not an absolute URL/,
      ],
      ['{"log":{"entries":[]}} trailing', /^staging\.har: is not valid JSON \(/],
      ['{"log":{"entries":[}]}}', /^staging\.har: is not valid JSON \(/],
      ['{"examples":{}}', /^staging\.har: not an examples file: /],
      ['[]', /^staging\.har: neither a HAR document/],
    ] as const) {
      expect(refusal(text), text).toMatch(message)
    }
    expect(createReplay({ recordings: file('{"log":{"entries":[]}}\n') }).recordings).toEqual([])
  })
})

describe('replay of a file with text that is not ASCII', () => {
  it('reads its URLs and bodies as the UTF-8 they are', () => {
    const recorded = createHar([
      jsonEntry('GET', 'http://staging.test/users/u1/follow', '{"name":"Zo\u00eb \u2615"}'),
    ])
    // A URL as some tools write it, not percent-encoded.
    const written = {
      request: { method: 'GET', url: 'http://staging.test/caf\u00e9/x', headers: [] },
      response: { status: 200, headers: [], content: { text: '{"caf\u00e9":1}' } },
    }
    recorded.log.entries.push(written as never)
    const replay = createReplay({ recordings: file(JSON.stringify(recorded, null, 1)) })
    expect(replay.answer(replayGet('/users/u1/follow'))?.body).toBe('{"name":"Zo\u00eb \u2615"}')
    expect(replay.answer(replayGet('/caf\u00e9/x'))?.body).toBe('{"caf\u00e9":1}')
    expect(replay.recordings.map((recording) => recording.path)).toEqual([
      '/users/u1/follow',
      '/caf\u00e9/x',
    ])
  })
})

describe('replay of a file whose entries hold "request" keys of their own', () => {
  it('answers as the parsed document does', async () => {
    const har = createHar([
      jsonEntry('GET', 'http://staging.test/users/u1/follow', '{"first":1}'),
      jsonEntry('GET', 'http://staging.test/users/u2/follow', '{"second":2}'),
      jsonEntry('GET', 'http://staging.test/users/u1/follow', '{"first":2}'),
    ])
    // The response of the first entry holds a "request" key, as some tools' custom fields do.
    const text = JSON.stringify(har).replace(
      '"response":{"status":200',
      '"response":{"_from":{"request":{"method":"GET","url":"http://staging.test/users/u2/follow"}},"status":200',
    )
    const replay = createReplay({ recordings: file(text) })
    expect(replay.size).toBe(3)
    expect(replay.answer(replayGet('/users/u2/follow'))?.body).toBe('{"second":2}')
    expect(replay.size).toBe(3)
    expect(replay.answer(replayGet('/users/u1/follow'))?.body).toBe('{"first":1}')
    expect(replay.answer(replayGet('/users/u1/follow'))?.body).toBe('{"first":2}')
    expect(await replay.checkAll(async () => () => undefined)).toEqual([])
  })

  it('refuses a file that is not JSON at load, naming where', () => {
    const har = createHar([jsonEntry('GET', 'http://staging.test/users/u1/follow', '{"first":1}')])
    const text = JSON.stringify(har).replace('"response":{', '"response":{"broken":tru,')
    expect(() => createReplay({ recordings: file(text) })).toThrow(RecordingsFormatError)
    expect(refusal(text)).toMatch(
      /^staging\.har: is not valid JSON \(Unexpected token ',', .*":tru,"status.* is not valid JSON\)$/,
    )
    // Indented, as browsers export it: the line and column of the fault.
    const indented = JSON.stringify(har, null, 2).replace('"status": 200', '"status": 2OO')
    const fault = indented.indexOf('2OO') + 1
    const line = indented.slice(0, fault).split('\n').length
    const column = fault - indented.lastIndexOf('\n', fault)
    expect(refusal(indented)).toMatch(
      new RegExp(
        `^staging\\.har: is not valid JSON \\(Expected ',' or '\\}' after property value in JSON at position ${fault} \\(line ${line} column ${column}\\)\\)$`,
      ),
    )
  })
})
