/**
 * @module
 * The shape of each request field the sandbox checks, shared by the server (these schemas) and
 * the overlay (the same `pattern`s, held equal by `spec/request-shapes.test.ts`).
 */
import { z } from './zod.ts'

/**
 * An e-mail address: a local part of RFC 5322's `atext` characters and dots, `@`, and a
 * domain of at least two labels of letters, digits and hyphens. One rule for the server and
 * the document (`pattern`), where `format: email` means something else to each validator.
 * Linear: the local part cannot hold `@` and a label cannot hold `.`, so every input splits
 * one way.
 */
export const EMAIL = /^[\w!#$%&'*+/=?^`{|}~.-]+@[\dA-Za-z-]+(?:\.[\dA-Za-z-]+)+$/
/** The longest address SMTP carries (RFC 5321's path limit, less the brackets). */
export const EMAIL_MAX_LENGTH = 254

/** A refresh token: two dot-separated segments, neither empty. */
export const REFRESH_TOKEN = /^[^.]+\.[^.]+$/

/** Text that is not only white space (`\s` is the set `String.prototype.trim` removes). */
export const NOT_BLANK = /\S/

/** An e-mail address, as `EMAIL` and `EMAIL_MAX_LENGTH` say. */
export function email() {
  return z.email({ pattern: EMAIL }).check(z.maxLength(EMAIL_MAX_LENGTH))
}
