import { describe, expect, it } from 'vitest'
import { createHar } from '../core/har.ts'
import { scanHar } from './har-scan.ts'
import { routeHash } from './route-hash.ts'
import { jsonEntry } from './test-recordings.ts'

const encode = (value: unknown, indent?: number) =>
  new TextEncoder().encode(JSON.stringify(value, null, indent))

describe('scanHar', () => {
  it('finds each entry and the hash of its method and path, compact or indented', () => {
    const har = createHar([
      jsonEntry('get', 'http://staging.test/payprov/account-status?verbose=1#top'),
      jsonEntry(
        'POST',
        'https://staging.test:8443/bookings/bkg_1/decline',
        '{"request":{"url":"x"}}',
      ),
      jsonEntry('GET', 'http://staging.test'),
    ])
    for (const bytes of [encode(har), encode(har, 2)]) {
      const entries = scanHar(bytes)!
      expect(entries.map((found) => found.route)).toEqual([
        routeHash('GET', '/payprov/account-status'),
        routeHash('POST', '/bookings/bkg_1/decline'),
        routeHash('GET', '/'),
      ])
      const text = new TextDecoder()
      expect(
        entries.map(
          ({ start, end }) => JSON.parse(text.decode(bytes.subarray(start, end))).request.url,
        ),
      ).toEqual(har.log.entries.map((e) => e.request.url))
    }
  })

  it('reads escaped and non-ASCII URLs and any key order', () => {
    const text = `{"log":{"entries":[{"response":{"status":200,"request":{"method":"DELETE","url":"http://a.test/no"}},"request":{"url":"http:\\/\\/a.test\\/caf\u00e9\\/x?q=\\"1\\"","method":"P\\u004fST"}}],"version":"1.2"}}`
    const entries = scanHar(new TextEncoder().encode(text))!
    expect(entries).toHaveLength(1)
    expect(entries[0]!.route).toBe(routeHash('POST', '/caf\u00e9/x'))
  })

  it('gives up on what it cannot index, for a full parse to explain', () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    for (const text of [
      '{"log": ',
      '{"log":{"entries":[{"request":{"method":"GET","url":"http://a.test/"}}',
      '{"log":{"entries":[{"request":{"method":"GET","url":"http://a.test/}}]}}',
      '{"log":{"entries":[1]}}',
      '{"log":{"entries":[{"request":{"method":"GET"}}]}}',
      '{"log":{"entries":[{"request":{"method":"GET","url":"/relative"}}]}}',
      '{"log":{"entries":[]}} trailing',
      '{"log":{"entries":[}]}}',
      '{"examples":{}}',
      '[]',
    ]) {
      expect(scanHar(bytes(text)), text).toBeUndefined()
    }
    expect(scanHar(bytes('{"log":{"entries":[]}}\n'))).toEqual([])
  })
})
