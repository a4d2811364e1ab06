/**
 * The block YAML writer against two YAML readers: whatever plain data it is given (words
 * YAML 1.1 reads as booleans, strings that look like numbers or dates, indicators, line
 * breaks, characters YAML must escape, nesting), js-yaml with the core schema (what
 * `--scenario-file` uses) and the `yaml` package read back an equal value.
 */
import fc from 'fast-check'
import { CORE_SCHEMA, load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { yamlBlock, yamlString } from './yaml-block.ts'

const tricky = fc.constantFrom(
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'False',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  '',
  ' ',
  'a ',
  ' a',
  '0',
  '-1',
  '+1',
  '1_000',
  '0x1F',
  '0o17',
  '1e3',
  '.inf',
  '-.Inf',
  '.nan',
  '12:30',
  '2026-06-01',
  '2026-06-01T10:00:00.000Z',
  '2026-06-01 10:00:00',
  'a: b',
  'a #b',
  '#a',
  '- a',
  '-',
  '? a',
  ':a',
  '&a',
  '*a',
  '!a',
  '|',
  '>',
  '%a',
  '@a',
  '`a',
  "'a'",
  '"a"',
  '[a]',
  '{a}',
  '<<',
  '=',
  'a,b',
  "O'Brien (host)",
  'line\nbreak',
  'tab\there',
  'crlf\r\n',
  '\u0000\u0007\u007f\u0085\u009f',
  '\u2028\u2029\ufeff',
  'café ☕ 😀',
  '\ud800',
  'usr_h0',
  'ops@example.com',
)

const key = fc.oneof(tricky, fc.string(), fc.constantFrom('id', 'reviews:needed', 'party:usr_1'))
const scalar = fc.oneof(
  tricky,
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double({ noNaN: true }).filter((value) => !Object.is(value, -0)),
  fc.boolean(),
  fc.constant(null),
)
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
}))

const read = (text: string) => ({
  jsYaml: load(text, { schema: CORE_SCHEMA }),
  yaml: parse(text, { uniqueKeys: false }),
})

describe('block YAML of plain data', () => {
  it('reads back equal in js-yaml (core schema) and the yaml package, whatever the value', () => {
    fc.assert(
      fc.property(value, (written) => {
        const text = yamlBlock(written)
        const { jsYaml, yaml } = read(text)
        expect(jsYaml).toEqual(written)
        expect(yaml).toEqual(written)
      }),
      { numRuns: 2000 },
    )
  })

  it('reads back equal as items of a sequence under a key, as the learned files nest records', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), (items) => {
        let text = 'add:\n  bookings:\n'
        for (const item of items) text += `    # a comment\n${yamlBlock(item, '      ', '    - ')}`
        const { jsYaml, yaml } = read(text)
        expect(jsYaml).toEqual({ add: { bookings: items } })
        expect(yaml).toEqual({ add: { bookings: items } })
      }),
      { numRuns: 1000 },
    )
  })

  it('writes records as js-yaml does, quoting only what needs it', () => {
    expect(
      yamlBlock(
        {
          id: 'bkg_1',
          guestId: 'usr_guest',
          displayName: "Ana O'Brien-Kiehn",
          roles: ['host', 'admin'],
          startsAt: '2026-06-10T18:00:00.000Z',
          amount: 300,
          declineReason: null,
          verified: true,
          note: 'yes',
          code: '0123',
          reason: 'late: sorry',
          signatures: [{ userId: 'usr_1', fullName: 'Ana' }],
          tags: [],
          extra: {},
          skipped: undefined,
        },
        '      ',
        '    - ',
      ),
    ).toBe(
      [
        '    - id: bkg_1',
        '      guestId: usr_guest',
        "      displayName: Ana O'Brien-Kiehn",
        '      roles:',
        '        - host',
        '        - admin',
        '      startsAt: 2026-06-10T18:00:00.000Z',
        '      amount: 300',
        '      declineReason: null',
        '      verified: true',
        '      note: "yes"',
        '      code: "0123"',
        '      reason: "late: sorry"',
        '      signatures:',
        '        - userId: usr_1',
        '          fullName: Ana',
        '      tags: []',
        '      extra: {}',
        '',
      ].join('\n'),
    )
    expect(yamlString('\u2028')).toBe('"\\u2028"')
  })

  it('refuses what is not plain data, naming its type', () => {
    expect(() => yamlBlock({ when: () => 1 })).toThrow(
      'Failed to write YAML: a function is not plain data',
    )
    expect(() => yamlBlock({ big: 1n })).toThrow('Failed to write YAML: a bigint is not plain data')
  })
})
