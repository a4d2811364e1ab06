/**
 * @module
 * The server's options, their defaults and the checks shared by the CLI, the
 * environment variables and the programmatic API.
 */
import { scenarioNames } from '../fixtures/scenarios.ts'
import { LOCAL_ORIGINS } from '../mocks/core/origins.ts'
import type { SandboxOptions } from '../mocks/sandbox.ts'

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/** Origins allowed by default: any local front-end, whatever its port. */
export const DEFAULT_CORS_ORIGINS: readonly string[] = LOCAL_ORIGINS

export interface AppOptions extends Omit<SandboxOptions, 'controlOrigins'> {
  /**
   * Origins whose cross-origin requests are answered with credentials: exact origins,
   * `*` wildcards (`http://localhost:*`), or `*` alone for any origin. Default: any
   * `http://localhost` and `http://127.0.0.1` origin. The origins named here (and the local
   * ones) may also change state through the control API from a page; a `*` alone does not
   * open the control API, which refuses every other page's `POST` or `DELETE` with a 403.
   */
  corsOrigins?: readonly string[]
  /** Silence the per-request log lines. Default `false`. */
  quiet?: boolean
  /** Where request log lines go. Default: standard output. */
  log?: (line: string) => void
  /** `text` (default; coloured on a terminal) or `json`, one object per line. */
  logFormat?: 'text' | 'json'
  /**
   * Refuse every `/__sandbox` call but `GET /__sandbox/health` with a 403, whatever it
   * carries: what the CLI does when it listens beyond loopback without a control token.
   * Default `false`.
   */
  controlClosed?: boolean
  /**
   * Most MCP sessions `/__sandbox/mcp` keeps at once; past it the least recently used is
   * closed. Default 100.
   */
  mcpMaxSessions?: number
  /** Closes an MCP session of `/__sandbox/mcp` unused this long, in ms. Default 30 minutes. */
  mcpIdleTimeoutMs?: number
}

export interface ServerOptions extends AppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /** Default `127.0.0.1`. */
  host?: string
  /**
   * Longest wait for in-flight requests on close before their connections are cut.
   * Default 10 s; the CLI waits 4 s, so that it exits within the 5 s a container stop allows.
   */
  closeTimeoutMs?: number
  /**
   * Keep each session's writes in an append-only log under this directory and replay them
   * on start, so a restart (or a crash) loses at most the write in flight. Default: state
   * in memory only.
   */
  stateDir?: string
  /** With `stateDir`: force each log append to the disk (fsync) before the write is applied. */
  fsync?: boolean
  /**
   * With `stateDir`: delete the logs of sessions unused for this long, in milliseconds;
   * 0 keeps them. Default 7 days.
   */
  sessionTtlMs?: number
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
}

/** `90s`, `30m`, `12h`, `7d` in milliseconds; `0` or `off` for none. */
export function parseDuration(value: string, name: string): number {
  const text = value.trim().toLowerCase()
  if (text === '0' || text === 'off') return 0
  const match = /^(\d{1,6})([smhd])$/.exec(text)
  if (!match) {
    throw new OptionError(
      `${name} must be a duration such as 90s, 30m, 12h or 7d, or 0 or off, got "${value}"`,
    )
  }
  return Number(match[1]) * DURATION_UNITS[match[2]!]!
}

/** Thrown for an option value the server cannot use; the CLI prints its message. */
export class OptionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OptionError'
  }
}

export function parsePort(value: string): number {
  const port = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port > 65535) {
    throw new OptionError(`port must be an integer from 0 to 65535, got "${value}"`)
  }
  return port
}

export function parseSeed(value: string): number {
  const seed = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(seed)) {
    throw new OptionError(`seed must be a non-negative integer, got "${value}"`)
  }
  return seed
}

/** A whole number from 1 to 10,000,000: a bound such as the session cap. */
export function parseLimit(value: string, name: string): number {
  const limit = Number(value)
  if (!/^\d{1,8}$/.test(value.trim()) || limit < 1 || limit > 10_000_000) {
    throw new OptionError(`${name} must be a whole number from 1 to 10000000, got "${value}"`)
  }
  return limit
}

export function parseScenario(value: string, known: readonly string[] = scenarioNames): string {
  if (!known.includes(value)) {
    throw new OptionError(`unknown scenario "${value}" (known: ${known.join(', ')})`)
  }
  return value
}

export function parseHost(value: string): string {
  const host = value.trim()
  if (host === '' || /[\s/]/.test(host))
    throw new OptionError(`host must be a hostname or an IP address, got "${value}"`)
  return host
}

export function parseLogFormat(value: string): 'text' | 'json' {
  const format = value.trim().toLowerCase()
  if (format !== 'text' && format !== 'json') {
    throw new OptionError(`log format must be text or json, got "${value}"`)
  }
  return format
}

export function parseBoolean(value: string, name: string): boolean {
  const normalised = value.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(normalised)) return true
  if (['', '0', 'false', 'no', 'off'].includes(normalised)) return false
  throw new OptionError(`${name} must be true or false, got "${value}"`)
}

/** Splits a comma list of origins and checks each one looks like an origin or a pattern. */
export function parseOrigins(value: string): string[] {
  const origins = value
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter((origin) => origin !== '')
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new OptionError(
        `CORS origin must look like http://host[:port] (with optional * wildcards) or be *, got "${origin}"`,
      )
    }
  }
  return origins
}

/** A control token: at least 8 visible characters, no spaces (it travels in a header). */
export function parseControlToken(value: string): string {
  if (!/^[\x21-\x7e]{8,}$/.test(value)) {
    throw new OptionError(
      'control token must be at least 8 visible ASCII characters without spaces',
    )
  }
  return value
}
