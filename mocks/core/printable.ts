/**
 * @module
 * Request-derived text made safe to print: a percent-decoded session id can carry a line
 * break that would forge a log line, or an ESC that drives the terminal; and `JSON.parse`'s
 * errors on one line.
 */

/** C0 controls, DEL, C1 controls, and the two Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

function escapeOne(char: string): string {
  const named = NAMED[char]
  if (named !== undefined) return named
  const code = char.charCodeAt(0)
  const hex = code.toString(16).padStart(2, '0')
  return code < 0x80 ? `\\x${hex}` : `\\u${hex.padStart(4, '0')}`
}

/**
 * `text` with each control character as a visible escape: `\r`, `\n`, `\t`, `\xHH` below 0x80,
 * `\uHHHH` above; other text, backslashes included, as it is.
 * @example
 * printable('qa\r\n09:30:12.345 admin') // 'qa\\r\\n09:30:12.345 admin'
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeOne)
}

/** `JSON.parse`'s error on one line, a position it names also as line and column (as Node 22). */
export function jsonErrorMessage(error: unknown, text?: string): string {
  let message = error instanceof Error ? error.message : String(error)
  const position = text === undefined ? null : /at position (\d+)$/.exec(message)
  if (position) {
    const before = text!.slice(0, Number(position[1]))
    const line = before.split('\n').length
    message += ` (line ${line} column ${before.length - before.lastIndexOf('\n')})`
  }
  return message.replace(/\r\n|[\n\r\u2028\u2029]/g, '\\n')
}
