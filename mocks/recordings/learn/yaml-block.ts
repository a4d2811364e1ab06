/**
 * @module
 * Plain data (what `JSON.stringify` keeps) as block YAML, a line per scalar, for the
 * learned scenario files: `key: value`, sequences under their key indented by two, as
 * js-yaml writes them. A string is written plain only when it has one meaning in every
 * YAML reader (a word, a name, an id, an e-mail address, an ISO date); any other is
 * written as its JSON text, which is a valid YAML double-quoted scalar.
 *
 * Written by hand rather than with js-yaml's `dump`: a learned scenario holds thousands of
 * records, and `dump` (which builds a node tree, looks for shared references and picks a
 * style per string) was the slowest part of `scenario from-har`, tens of milliseconds
 * where this takes one or two. `yaml-block.test.ts` holds it to js-yaml's and the `yaml`
 * package's reading: every value written reads back equal.
 */

/** Words YAML 1.1 readers take for a boolean or null: quoted, as js-yaml's `dump` does. */
const KEYWORDS = new Set(
  ['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n'].flatMap((word) => [
    word,
    word.toUpperCase(),
    word[0]!.toUpperCase() + word.slice(1),
  ]),
)

const LONGEST_KEYWORD = Math.max(...[...KEYWORDS].map((word) => word.length))

/**
 * A letter first, then letters, digits, spaces and `_ . , @ / + ( ) ' -`, not ending in a
 * space: no YAML indicator can start it, and `: ` or ` #` cannot occur in it.
 */
const PLAIN = /^[A-Za-z][A-Za-z0-9 _.,@/+()'-]*$/
/** An ISO date and time (`2026-06-01T10:00:00.000Z`): a string in YAML 1.2's core schema. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/
/** Characters YAML does not allow unescaped in a document, or reads as line breaks. */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff]/g

const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/** A string as a YAML scalar. */
export function yamlString(value: string): string {
  const first = value.charCodeAt(0)
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)
  if (letter) {
    const plain =
      PLAIN.test(value) &&
      value.charCodeAt(value.length - 1) !== 0x20 &&
      (value.length > LONGEST_KEYWORD || !KEYWORDS.has(value))
    if (plain) return value
  } else if (first >= 0x30 && first <= 0x39 && TIMESTAMP.test(value)) return value
  return JSON.stringify(value).replace(UNPRINTABLE, escapeChar)
}

/** The scalar text of `value`, or `undefined` for a non-empty array or object. */
function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return yamlString(value)
    case 'number':
      if (Number.isFinite(value)) return String(value)
      return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf'
    case 'boolean':
      return String(value)
    case 'object':
      if (value === null) return 'null'
      if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined
      for (const key in value) {
        if ((value as Record<string, unknown>)[key] !== undefined) return undefined
      }
      return '{}'
    default:
      throw new TypeError(`Failed to write YAML: a ${typeof value} is not plain data`)
  }
}

/**
 * The lines of the non-empty array or object `value`, each ending in a line break and
 * starting with `indent`, except the first, which starts with `lead` (as wide: `- ` for
 * an item).
 */
function block(value: object, indent: string, lead: string): string {
  const inner = `${indent}  `
  let text = ''
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown
      const start = `${i === 0 ? lead : indent}- `
      const scalarText = scalar(item === undefined ? null : item)
      text +=
        scalarText === undefined ? block(item as object, inner, start) : `${start}${scalarText}\n`
    }
    return text
  }
  let first = true
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (item === undefined) continue
    const start = `${first ? lead : indent}${yamlString(key)}:`
    first = false
    const scalarText = scalar(item)
    text +=
      scalarText === undefined
        ? `${start}\n${block(item as object, inner, inner)}`
        : `${start} ${scalarText}\n`
  }
  return text
}

/**
 * `value` as block YAML, each line ending in a line break and starting with `indent` (the
 * first with `lead` when given, as wide as `indent`: `- ` makes it an item of a sequence).
 *
 * @example
 * yamlBlock({ id: 'bkg_1', roles: ['host'] }, '  ') // '  id: bkg_1\n  roles:\n    - host\n'
 */
export function yamlBlock(value: unknown, indent = '', lead = indent): string {
  const text = scalar(value)
  return text === undefined ? block(value as object, indent, lead) : `${lead}${text}\n`
}
