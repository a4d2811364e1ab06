/**
 * @module
 * The checks of the CLI's option values: a bad value is an `InvalidArgumentError` that names
 * the value and the rule.
 */
import { InvalidArgumentError } from 'commander'
import { DEFAULT_CORS_ORIGINS } from '../server/options.ts'

export const invalid = (message: string): never => {
  throw new InvalidArgumentError(message)
}

/** A whole number from `min` to `max` written as `pattern` allows. */
export const whole =
  (pattern: RegExp, min: number, max: number, rule: string) => (value: string) => {
    const number = Number(value)
    return pattern.test(value.trim()) && number >= min && number <= max
      ? number
      : invalid(`${rule}, got "${value}"`)
  }
export const parsePort = whole(/^\d+$/, 0, 65_535, 'port must be an integer from 0 to 65535')
export const parseSeed = whole(
  /^\d+$/,
  0,
  Number.MAX_SAFE_INTEGER,
  'seed must be a non-negative integer',
)
export const limit = (name: string) =>
  whole(/^\d{1,8}$/, 1, 10_000_000, `${name} must be a whole number from 1 to 10000000`)

const UNITS: Readonly<Record<string, number>> = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }

/** `90s`, `30m`, `12h`, `7d` in milliseconds; `0` or `off` for none. */
export function parseDuration(value: string): number {
  const text = value.trim().toLowerCase()
  const match = /^(\d{1,6})([smhd])$/.exec(text)
  if (text === '0' || text === 'off') return 0
  return match
    ? Number(match[1]) * UNITS[match[2]!]!
    : invalid(
        `session-ttl must be a duration such as 90s, 30m, 12h or 7d, or 0 or off, got "${value}"`,
      )
}

/** A Redis URL: `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
export function parseStateUrl(value: string): string {
  let url: URL | undefined
  try {
    url = new URL(value.trim())
  } catch {}
  return url && /^rediss?:$/.test(url.protocol) && url.hostname && /^(\/\d*)?$/.test(url.pathname)
    ? value.trim()
    : invalid(
        `state must be a Redis URL such as redis://redis:6379/0 (rediss:// for TLS), got "${value}"`,
      )
}

export function parseHost(value: string): string {
  const host = value.trim()
  return host === '' || /[\s/]/.test(host)
    ? invalid(`host must be a hostname or an IP address, got "${value}"`)
    : host
}

/** A comma list of origins added to those before it (the default ones are replaced). */
export function addOrigins(value: string, previous: readonly string[]): string[] {
  const origins = value.split(',').map((origin) => origin.trim().replace(/\/$/, ''))
  for (const origin of origins.filter((origin) => origin !== '*' && origin !== '')) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      invalid(
        `CORS origin must look like http://host[:port] (with optional * wildcards) or be *, got "${origin}"`,
      )
    }
  }
  const before = previous === DEFAULT_CORS_ORIGINS ? [] : previous
  return [...before, ...origins.filter((origin) => origin !== '')]
}

export const notEmpty = (what: string) => (value: string) =>
  value.trim() === '' ? invalid(`${what} must not be empty`) : value

/** A control token: at least 8 visible characters, no spaces (it travels in a header). */
export const parseControlToken = (value: string) =>
  /^[\x21-\x7e]{8,}$/.test(value)
    ? value
    : invalid('control token must be at least 8 visible ASCII characters without spaces')

/** Each value after the others: `--replay-match` takes a comma list too. */
export const collect = (value: string, previous: string[] = []) => [...previous, value]
export const commaList = (value: string, previous: string[] = []) => [
  ...previous,
  ...value.split(',').flatMap((field) => field.trim() || []),
]

export function parseBoolean(name: string, value: string): boolean {
  const normalised = value.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(normalised)) return true
  if (['', '0', 'false', 'no', 'off'].includes(normalised)) return false
  return invalid(`${name} must be true or false, got "${value}"`)
}
