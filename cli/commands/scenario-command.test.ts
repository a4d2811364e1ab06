/**
 * The learned scenario's YAML against two YAML readers: whatever plain data a scenario
 * holds (words YAML 1.1 reads as booleans, strings that look like numbers or dates,
 * indicators, line breaks, characters YAML must escape, nesting), js-yaml with the core
 * schema (what `--scenario-file` uses) and the `yaml` package read back an equal value,
 * the comment above each record included.
 */
import fc from 'fast-check'
import { CORE_SCHEMA, load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'
import type { LearnedScenario } from '../../recordings/learn/learn-scenario.ts'
import { scenarioYaml } from './scenario-command.ts'

/** A learned scenario holding `scenario`, its records learned from `origins`. */
function learnedOf(
  scenario: Record<string, unknown>,
  origins: Record<string, number[]> = {},
): LearnedScenario {
  return {
    scenario: scenario as unknown as ScenarioFile,
    covered: 0,
    exchanges: 0,
    entries: 0,
    notCovered: [],
    others: [],
    origins: new Map(Object.entries(origins)),
    label: (index) => `#${index + 1} POST /bookings/bkg_1/decline 201`,
    signIns: [],
  }
}

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
  '\ufffe\uffff',
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

describe('the YAML of a learned scenario', () => {
  it('reads back equal in js-yaml (core schema) and the yaml package, whatever the value', () => {
    fc.assert(
      fc.property(value, (written) => {
        const scenario = {
          name: 'learned',
          description: 'Learned from a recording',
          value: written,
        }
        const text = scenarioYaml(learnedOf(scenario))
        const { jsYaml, yaml } = read(text)
        expect(jsYaml).toEqual(scenario)
        expect(yaml).toEqual(scenario)
      }),
      { numRuns: 2000 },
    )
  })

  it('reads back equal as items of a sequence under a key, as the learned files nest records', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), (items) => {
        const scenario = { name: 'learned', add: { bookings: items } }
        const text = scenarioYaml(learnedOf(scenario), ['a comment'])
        expect(
          text.match(/^ {4}# made by the factories for a record that needs it$/gm),
        ).toHaveLength(items.length)
        const { jsYaml, yaml } = read(text)
        expect(jsYaml).toEqual({ name: 'learned', add: { bookings: items } })
        expect(yaml).toEqual({ name: 'learned', add: { bookings: items } })
      }),
      { numRuns: 1000 },
    )
  })

  it('writes records as js-yaml does, quoting only what needs it, each under its origin', () => {
    const record = {
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
    }
    const scenario = {
      extends: 'empty',
      add: { bookings: [record] },
      change: {},
      remove: { users: ['usr_gone'] },
      name: 'learned',
      description: 'Learned from staging.har: 1 of 1 exchanges',
    }
    expect(
      scenarioYaml(learnedOf(scenario, { 'bookings:bkg_1': [0, 2] }), [
        'Learned by a test:',
        'two lines',
      ]),
    ).toBe(
      [
        '# Learned by a test:',
        '# two lines',
        '',
        'extends: empty',
        'name: learned',
        'description: "Learned from staging.har: 1 of 1 exchanges"',
        'add:',
        '  bookings:',
        '    # from #1 POST /bookings/bkg_1/decline 201; #3 POST /bookings/bkg_1/decline 201',
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
        'remove:',
        '  users:',
        '    # made by the factories for a record that needs it',
        '    - usr_gone',
        '',
      ].join('\n'),
    )
    const escaped = scenarioYaml(learnedOf({ name: '\u2028' }))
    expect(read(escaped).jsYaml).toEqual({ name: '\u2028' })
    expect(escaped).not.toContain('\u2028')
  })

  it('refuses what is not plain data, naming its type', () => {
    const withRecord = (record: Record<string, unknown>) =>
      learnedOf({ name: 'learned', add: { bookings: [{ id: 'bkg_1', ...record }] } })
    expect(() => scenarioYaml(withRecord({ when: () => 1 }))).toThrow(
      'Failed to write YAML: a function is not plain data',
    )
    expect(() => scenarioYaml(withRecord({ big: 1n }))).toThrow(
      'Failed to write YAML: a bigint is not plain data',
    )
  })
})
