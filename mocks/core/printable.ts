/**
 * @module
 * Request-derived text made safe to print: a percent-decoded session id can carry a line
 * break that would forge a log line, or an ESC that drives the terminal.
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
