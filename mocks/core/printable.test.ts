import { describe, expect, it } from 'vitest'
import { printable } from './printable.ts'

describe('printable', () => {
  it('writes CR, LF and tab as \\r, \\n and \\t', () => {
    expect(printable('qa\r\nforged\tline')).toBe('qa\\r\\nforged\\tline')
  })

  it('writes the other C0 controls and DEL as \\xHH', () => {
    expect(printable('\u0000\u001b[31m\u007f')).toBe('\\x00\\x1b[31m\\x7f')
  })

  it('writes C1 controls and the Unicode line separators as \\uHHHH', () => {
    expect(printable('\u0080\u0085\u009b\u2028\u2029')).toBe('\\u0080\\u0085\\u009b\\u2028\\u2029')
  })

  it('leaves printable text as it is, backslashes and non-ASCII letters included', () => {
    const text = String.raw`/bookings/bkg_1?q=a\nb é ü 日本 😀`
    expect(printable(text)).toBe(text)
  })
})
