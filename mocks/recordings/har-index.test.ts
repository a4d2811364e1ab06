import { describe, expect, it } from 'vitest'
import { createHar } from '../core/har.ts'
import { quickIndexHar } from './har-index.ts'
import { splitRecordedUrl } from './recorded-url.ts'
import { StaleRecordingIndex } from './recordings.ts'
import { recordingsFile } from './recordings-file.ts'
import { createReplay } from './replay.ts'
import { routeHash } from './route-hash.ts'
import { jsonEntry, replayGet } from './test-recordings.ts'

/** A body whose text holds `"request": {"method":"GET"}`, escaped, as bodies are in HAR. */
const TRICKY_BODY = '{"note":"\\"request\\": {\\"method\\":\\"GET\\"}"}'

const file = (text: string) => recordingsFile('staging.har', new TextEncoder().encode(text))

describe('quickIndexHar', () => {
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

  it('finds each entry, its route and its text, compact or indented', () => {
    for (const text of [JSON.stringify(har), JSON.stringify(har, null, 2)]) {
      const index = quickIndexHar(text)!
      expect(index.routes).toEqual([
        routeHash('GET', '/payprov/account-status'),
        routeHash('POST', '/bookings/bkg_1/decline'),
        routeHash('GET', '/'),
      ])
      // Out of order first: each entry is confirmed on its own, then in file order.
      for (const k of [2, 0, 1]) {
        expect(JSON.parse(index.entryText(k))).toEqual(har.log.entries[k])
      }
    }
  })

  it('hashes each route as the recorded URL reads, whatever the URL holds', () => {
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
    const entries = urls.map((url) => {
      const entry = jsonEntry('post', 'http://placeholder.test/')
      return { ...entry, request: { ...entry.request, url: JSON.parse(`"${url}"`) as string } }
    })
    for (const text of [
      JSON.stringify(createHar(entries)),
      JSON.stringify(createHar(entries), null, 1),
    ]) {
      const bytes = new TextEncoder().encode(text)
      // Read as the file reader does: one character per byte, UTF-8 decoded where needed.
      const latin1 = Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')
      const decode = (start: number, end: number) =>
        new TextDecoder().decode(bytes.subarray(start, end))
      for (const [source, read] of [
        [text, undefined],
        [latin1, decode],
      ] as const) {
        expect(quickIndexHar(source, read)!.routes).toEqual(
          entries.map((entry) => routeHash('POST', splitRecordedUrl(entry.request.url)!.path)),
        )
      }
    }
  })

  it('leaves what it cannot index this way to the full read', () => {
    const text = JSON.stringify(har)
    for (const other of [
      text.slice(0, -3),
      `${text} trailing`,
      '{"log":{"entries":[]}}',
      '{"examples":{"a":{"request":{"method":"GET","url":"http://a.test/"}}}}',
      '{"log":{"entries":[{"request":{"method":"GET"}}]}}',
      '{"log":{"entries":[{"request":{"method":"GET","url":"/relative"}}]}}',
      '[]',
    ]) {
      expect(quickIndexHar(other), other).toBeUndefined()
    }
  })

  it('finds out, when reading an entry, that a "request" key was not an entry\'s', () => {
    // A tool's own field holding an object with a "request" key, in the second entry.
    const text = JSON.stringify(har).replace(
      '"request":{"method":"POST"',
      '"_redirects":[{"request":{"method":"GET","url":"http://a.test/"}},{"request":{"method":"GET","url":"http://a.test/"}}],"request":{"method":"POST"',
    )
    const index = quickIndexHar(text)!
    expect(index.routes).toHaveLength(5)
    expect(JSON.parse(index.entryText(0))).toEqual(har.log.entries[0])
    expect(() => {
      for (let k = 1; k < 5; k++) index.entryText(k)
    }).toThrow(StaleRecordingIndex)
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

describe('replay when the quick index does not hold', () => {
  it('indexes the file again in full and answers as the parsed document does', async () => {
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
    expect(replay.size).toBe(4)
    expect(replay.answer(replayGet('/users/u2/follow'))?.body).toBe('{"second":2}')
    expect(replay.size).toBe(3)
    expect(replay.answer(replayGet('/users/u1/follow'))?.body).toBe('{"first":1}')
    expect(replay.answer(replayGet('/users/u1/follow'))?.body).toBe('{"first":2}')
    expect(await replay.checkAll(async () => () => undefined)).toEqual([])
  })

  it('reports a file that is not a HAR document after all, and answers nothing from it', async () => {
    const text = JSON.stringify(
      createHar([jsonEntry('GET', 'http://staging.test/users/u1/follow', '{"first":1}')]),
    ).replace('"response":{', '"response":{"broken":tru,')
    const replay = createReplay({ recordings: file(text) })
    expect(replay.answer(replayGet('/users/u1/follow'))).toBeUndefined()
    const problems = await replay.checkAll(async () => () => undefined)
    expect(problems).toEqual([
      expect.stringMatching(/^staging\.har: log\.entries\.0 is not valid JSON/),
    ])
    expect(replay.malformed).toEqual(problems)
  })
})
