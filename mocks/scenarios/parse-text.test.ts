import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { ScenarioError } from './compile-scenarios.ts'
import { parseScenarioText } from './parse-text.ts'

const EXAMPLE = 'examples/scenarios/host-no-bookings.yaml'

function problemsOf(text: string, source = 'scenarios/bad.yaml'): readonly string[] {
  try {
    parseScenarioText(text, source)
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems
    throw error
  }
  throw new Error('parsed without a problem')
}

describe('parseScenarioText, YAML', () => {
  it('reads the README example as the yaml package does', () => {
    const text = readFileSync(new URL(`../../${EXAMPLE}`, import.meta.url), 'utf8')
    expect(parseScenarioText(text, EXAMPLE)).toEqual(parseDocument(text).toJS())
  })

  it('keeps YAML 1.2 core values: dates and yes/no stay strings, numbers and null do not', () => {
    const text =
      'name: t\nadd:\n  bookings:\n    - startsAt: 2026-06-01T09:00:00.000Z\n      note: yes\n      amount: 480\n      declineReason: null\n      code: 0x1F\n'
    expect(parseScenarioText(text, 't.yaml')).toEqual({
      name: 't',
      add: {
        bookings: [
          {
            startsAt: '2026-06-01T09:00:00.000Z',
            note: 'yes',
            amount: 480,
            declineReason: null,
            code: 31,
          },
        ],
      },
    })
    expect(parseScenarioText('', 'empty.yaml')).toBeNull()
    // An "&" in a value is not an anchor.
    expect(parseScenarioText('name: R&D\n', 'r.yaml')).toEqual({ name: 'R&D' })
  })

  it('reads anchors and aliases, bounding their expansion', () => {
    expect(parseScenarioText('base: &venue { city: Lisbon }\nother: *venue\n', 'a.yaml')).toEqual({
      base: { city: 'Lisbon' },
      other: { city: 'Lisbon' },
    })
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level)
      const name = String.fromCharCode(97 + level)
      bomb.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`)
    }
    expect(() => parseScenarioText(bomb.join('\n'), 'bomb.yaml')).toThrow(/alias/i)
  })

  it('names the file, the line and the column of every syntax error', () => {
    expect(problemsOf('name: x\nadd:\n  bookings:\n    - id: a\n     status: b\n')).toEqual([
      expect.stringMatching(/^scenarios\/bad\.yaml: line 5, column \d+: \S/),
    ])
    expect(problemsOf('name: x\nname: y\n')).toEqual([
      expect.stringMatching(/^scenarios\/bad\.yaml: line 2, column 1: .*unique/i),
    ])
  })
})
