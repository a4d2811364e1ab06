import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  cutTornTail,
  encodeRecord,
  type LogRecord,
  parseLog,
  readLogFile,
  type WriteRecord,
} from './state-log.ts'

const folder = mkdtempSync(join(tmpdir(), 'sandbox-state-log-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
let files = 0
const newFile = () => join(folder, `${++files}.jsonl`)

const write = (body: string | null, time = '2025-03-01T09:30:00.000Z'): WriteRecord => ({
  time,
  method: 'POST',
  url: '/bookings/bkg_1/decline',
  headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
  body,
})
const reset: LogRecord = { reset: { scenario: 'default', seed: 1 } }
const bytesOf = (text: string) => Buffer.from(text, 'utf8')

describe('parseLog', () => {
  it('reads every record of a whole log, writes and resets', () => {
    const records = [reset, write('{}'), write(null), { reset: { ...reset.reset, snapshot: 's' } }]
    const bytes = bytesOf(records.map(encodeRecord).join(''))
    expect(parseLog(bytes, 'a.jsonl')).toEqual({
      records,
      validBytes: bytes.length,
      size: bytes.length,
      tornTail: false,
      unterminated: false,
    })
  })

  it('reads an empty file as an empty log', () => {
    expect(parseLog(new Uint8Array(), 'a.jsonl')).toEqual({
      records: [],
      validBytes: 0,
      size: 0,
      tornTail: false,
      unterminated: false,
    })
  })

  it('skips blank lines, which still count in line numbers', () => {
    const text = `${encodeRecord(reset)}\n  \r\n${encodeRecord(write('{}'))}{}\n`
    const contents = parseLog(bytesOf(text), 'a.jsonl')
    expect(contents.records).toEqual([reset, write('{}')])
    expect(contents.corrupt?.line).toBe(5)
  })

  it('reports a corrupt middle line with its line number, byte offset and the records before it', () => {
    const before = `${encodeRecord(write('{"name":"Zoë — 東京"}'))}${encodeRecord(reset)}`
    const text = `${before}{"time": oops\n${encodeRecord(write('{}'))}`
    const contents = parseLog(bytesOf(text), 'sessions/cWE.jsonl')
    expect(contents.records).toEqual([write('{"name":"Zoë — 東京"}'), reset])
    expect(contents.corrupt).toEqual({
      file: 'sessions/cWE.jsonl',
      line: 3,
      offset: Buffer.byteLength(before),
      reason: expect.stringMatching(/^not valid JSON \(/),
    })
    expect(contents.validBytes).toBe(Buffer.byteLength(before))
    expect(contents.tornTail).toBe(false)
  })

  it('takes JSON that is not a record for a corrupt line, naming what is wrong', () => {
    for (const line of ['42', '{}', 'null', '[]', '"text"', '{"reset":{"scenario":"default"}}']) {
      const contents = parseLog(bytesOf(`${encodeRecord(reset)}${line}\n`), 'a.jsonl')
      expect(contents.records, line).toEqual([reset])
      expect(contents.corrupt?.line, line).toBe(2)
    }
    const extra = parseLog(bytesOf(`${JSON.stringify({ ...write(null), extra: 1 })}\n`), 'a.jsonl')
    expect(extra.corrupt?.reason).toMatch(/^not a write record \(.*extra/)
    const seed = parseLog(bytesOf('{"reset":{"scenario":"default","seed":-1}}\n'), 'a.jsonl')
    expect(seed.corrupt?.reason).toMatch(/^not a reset record \(reset\.seed: /)
  })

  it('stops at a file of garbage on its first line', () => {
    const contents = parseLog(bytesOf('garbage\nmore garbage\n'), 'a.jsonl')
    expect(contents).toMatchObject({ records: [], validBytes: 0, tornTail: false })
    expect(contents.corrupt).toMatchObject({ line: 1, offset: 0 })
  })

  it('takes invalid UTF-8 for a corrupt line, even as the last one', () => {
    const bad = Buffer.concat([bytesOf('{"time":"'), Buffer.from([0xff, 0xfe]), bytesOf('"}')])
    const middle = Buffer.concat([bytesOf(encodeRecord(reset)), bad, bytesOf('\n')])
    expect(parseLog(middle, 'a.jsonl').corrupt).toMatchObject({
      line: 2,
      reason: 'not valid UTF-8',
    })
    const last = Buffer.concat([bytesOf(encodeRecord(reset)), bad])
    expect(parseLog(last, 'a.jsonl')).toMatchObject({
      records: [reset],
      tornTail: false,
      corrupt: { line: 2, reason: 'not valid UTF-8' },
    })
  })

  it('takes a last line with no newline that is not JSON for a torn tail', () => {
    const whole = encodeRecord(reset)
    const contents = parseLog(bytesOf(`${whole}{"time":"2025-03-01T09:3`), 'a.jsonl')
    expect(contents).toMatchObject({
      records: [reset],
      validBytes: whole.length,
      tornTail: true,
    })
    expect(contents.corrupt).toBeUndefined()
  })

  it('keeps a last record whose newline is missing, and says it is unterminated', () => {
    const text = `${encodeRecord(reset)}${JSON.stringify(write('{}'))}`
    expect(parseLog(bytesOf(text), 'a.jsonl')).toMatchObject({
      records: [reset, write('{}')],
      validBytes: Buffer.byteLength(text),
      tornTail: false,
      unterminated: true,
    })
  })

  it('takes a last line with no newline that is JSON but no record for a corrupt line', () => {
    expect(parseLog(bytesOf(`${encodeRecord(reset)}{}`), 'a.jsonl')).toMatchObject({
      tornTail: false,
      corrupt: { line: 2 },
    })
  })
})

describe('cutTornTail', () => {
  it('cuts a multibyte line torn in the middle of a character by bytes, so the next append stands alone', () => {
    const file = newFile()
    const kept = encodeRecord(write('{"guest":"Zoë — 東京"}'))
    const torn = encodeRecord(write('{"guest":"Zoë — 東京", "note":"ça va"}'))
    // Cut inside 東 (3 bytes in UTF-8): the fragment is not even valid UTF-8.
    const cut = Buffer.byteLength(torn.slice(0, torn.indexOf('東'))) + 1
    writeFileSync(file, Buffer.concat([bytesOf(kept), bytesOf(torn).subarray(0, cut)]))
    const contents = readLogFile(file)
    expect(contents).toMatchObject({ records: [write('{"guest":"Zoë — 東京"}')], tornTail: true })
    expect(contents.validBytes).toBe(Buffer.byteLength(kept))

    expect(cutTornTail(file, contents)).toBe(true)
    appendFileSync(file, encodeRecord(reset))
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.pop()).toBe('')
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow()
    expect(readLogFile(file).records).toEqual([write('{"guest":"Zoë — 東京"}'), reset])
  })

  it('gives an unterminated last record its newline back', () => {
    const file = newFile()
    writeFileSync(file, JSON.stringify(reset))
    expect(cutTornTail(file, readLogFile(file))).toBe(true)
    appendFileSync(file, encodeRecord(write(null)))
    expect(readLogFile(file)).toMatchObject({ records: [reset, write(null)], unterminated: false })
  })

  it('leaves a whole log and a log with a corrupt line alone', () => {
    const whole = newFile()
    writeFileSync(whole, encodeRecord(reset))
    expect(cutTornTail(whole, readLogFile(whole))).toBe(false)
    const corrupt = newFile()
    const text = `${encodeRecord(reset)}oops\n{"torn`
    writeFileSync(corrupt, text)
    expect(cutTornTail(corrupt, readLogFile(corrupt))).toBe(false)
    expect(readFileSync(corrupt, 'utf8')).toBe(text)
  })

  it('refuses to cut a file written since it was read', () => {
    const file = newFile()
    writeFileSync(file, `${encodeRecord(reset)}{"torn`)
    const contents = readLogFile(file)
    appendFileSync(file, 'more')
    expect(() => cutTornTail(file, contents)).toThrow(/written meanwhile/)
  })
})

const text = fc.string({ unit: 'binary', maxLength: 30 })
const recordArbitrary: fc.Arbitrary<LogRecord> = fc.oneof(
  fc.record({
    time: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString()),
    method: fc.constantFrom('POST', 'PUT'),
    url: text.map((path) => `/${path}`),
    headers: fc.dictionary(fc.constantFrom('authorization', 'content-type', 'cookie'), text),
    body: fc.option(text, { nil: null }),
  }),
  fc.record({
    reset: fc.record(
      {
        scenario: fc.constantFrom('default', 'empty', 'Zoë — 東京'),
        seed: fc.nat(),
        snapshot: text.filter(Boolean),
      },
      { requiredKeys: ['scenario', 'seed'] },
    ),
  }),
)

describe('a log cut anywhere', () => {
  it('gives back the records before the cut plus the one appended after cutTornTail', () => {
    fc.assert(
      fc.property(
        fc.array(recordArbitrary, { maxLength: 6 }),
        recordArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (records, appended, at) => {
          const lines = records.map((record) => bytesOf(encodeRecord(record)))
          const bytes = Buffer.concat(lines)
          const cut = Math.floor(at * bytes.length)
          // A record survives the cut when its JSON does, with or without its newline.
          let end = 0
          const survivors = records.filter((_, index) => {
            end += lines[index]!.length
            return end - 1 <= cut
          })
          const file = newFile()
          writeFileSync(file, bytes.subarray(0, cut))
          const contents = readLogFile(file)
          expect(contents.corrupt).toBeUndefined()
          expect(contents.records).toEqual(survivors)
          cutTornTail(file, contents)
          appendFileSync(file, encodeRecord(appended))
          expect(readLogFile(file)).toEqual({
            records: [...survivors, appended],
            validBytes: expect.any(Number),
            size: expect.any(Number),
            tornTail: false,
            unterminated: false,
          })
          rmSync(file)
        },
      ),
      { numRuns: 300 },
    )
  })
})
