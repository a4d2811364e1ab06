import { Buffer } from 'node:buffer'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Text } from './read-file.ts'

describe('utf8Text', () => {
  it('reads ASCII bytes as the text decoding them gives', () => {
    const bytes = Buffer.from('{"log":{"entries":[]},"tab":"\\t","del":"\x7f"}')
    expect(utf8Text(bytes)).toBe(bytes.toString('utf8'))
  })

  it('decodes bytes that are not ASCII, a byte order mark kept as reading the file keeps it', () => {
    const text = '\uFEFF{"name":"Café ☕ 🏠","note":"naïve"}'
    expect(utf8Text(Buffer.from(text, 'utf8'))).toBe(text)
  })

  it('reads a view into a larger buffer as only its own bytes', () => {
    const whole = Buffer.from('xx{"a":1}yy')
    expect(utf8Text(whole.subarray(2, 9))).toBe('{"a":1}')
  })

  it('gives what decoding gives for any text, ASCII or not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const bytes = Buffer.from(text, 'utf8')
        expect(utf8Text(bytes)).toBe(bytes.toString('utf8'))
      }),
      { numRuns: 500 },
    )
  })
})
