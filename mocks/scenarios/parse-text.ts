/**
 * @module
 * A scenario file's text, JSON or YAML, to a plain value, in any runtime. YAML is read by
 * js-yaml (ten times faster on 10,000 records; YAML 1.2 core schema, so dates and `yes` stay
 * strings); a file with anchors, or one js-yaml refuses, by `yaml`, which bounds aliases and
 * names every syntax error's line and column.
 */
import { CORE_SCHEMA, load } from 'js-yaml'
import { parseDocument } from 'yaml'
import { ScenarioError } from './compile-scenarios.ts'

/**
 * Parses `text` as JSON when `source` ends in `.json`, as YAML otherwise (YAML 1.2 reads
 * JSON too). Throws a {@link ScenarioError} naming `source` and every syntax error.
 *
 * @example
 * const file = parseScenarioText(await response.text(), 'host-no-bookings.yaml')
 */
export function parseScenarioText(text: string, source: string): unknown {
  if (/\.json$/i.test(source)) {
    try {
      return JSON.parse(text)
    } catch (error) {
      throw new ScenarioError('Invalid scenario file', [
        `${source}: not valid JSON (${(error as Error).message})`,
      ])
    }
  }
  // `&name` starts an anchor; an `&` inside a plain value ("R&D") only costs the slower path.
  if (!/&[^\s,[\]{}]/.test(text)) {
    try {
      return load(text, { schema: CORE_SCHEMA, filename: source }) ?? null
    } catch {
      // Described below, every error with its place.
    }
  }
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true })
  if (document.errors.length > 0) {
    throw new ScenarioError(
      'Invalid scenario file',
      document.errors.map((error) => {
        const line = error.linePos?.[0]
        const where = line ? `line ${line.line}, column ${line.col}: ` : ''
        return `${source}: ${where}${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`
      }),
    )
  }
  return document.toJS({ maxAliasCount: 1000 })
}
