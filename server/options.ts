/**
 * @module
 * The server's options and their defaults, shared by the CLI and the programmatic API.
 */
import { LOCAL_ORIGINS } from '../mocks/core/index.ts'
import type { SandboxOptions } from '../mocks/sandbox.ts'
import type { ServerMetrics } from './metrics.ts'

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/** Any local front-end, whatever its port. */
export const DEFAULT_CORS_ORIGINS: readonly string[] = LOCAL_ORIGINS

export interface AppOptions extends Omit<SandboxOptions, 'controlOrigins'> {
  /**
   * Origins answered with credentials: exact, with `*` wildcards (`http://localhost:*`), or `*`
   * alone for any. Default: any local origin. Those named (and the local ones) may also change
   * state through the control API from a page; a `*` alone does not open the control API.
   */
  corsOrigins?: readonly string[]
  /** Silence the per-request log lines. Default `false`. */
  quiet?: boolean
  /** Where request log lines go. Default: standard output. */
  log?: (line: string) => void
  /** `text` (default; coloured on a terminal) or `json`, one object per line. */
  logFormat?: 'text' | 'json'
  /**
   * Refuse every `/__sandbox` call but `GET /__sandbox/health` with a 403: what the CLI does
   * beyond loopback without a control token. Default `false`.
   */
  controlClosed?: boolean
  /**
   * Without a control token, serve the control API, the dashboard and MCP to any `Host`, as
   * `--control-open` does. Default `false`: only to a loopback `Host` (`localhost`, `127.0.0.1`,
   * `[::1]`), against DNS rebinding and a proxy that would forward anyone's calls.
   */
  controlOpen?: boolean
  /** Most MCP sessions kept; past it the least recently used is closed. Default 100. */
  mcpMaxSessions?: number
  /** Closes an MCP session of `/__sandbox/mcp` unused this long, in ms. Default 30 minutes. */
  mcpIdleTimeoutMs?: number
  /**
   * `GET /__sandbox/metrics` (Prometheus): these metrics (`createMetrics()`, to share with a
   * store), or `false` for none. Default: metrics of their own.
   */
  metrics?: ServerMetrics | false
}

export interface ServerOptions extends AppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Longest wait for in-flight requests on close before they are cut. Default 10 s. */
  closeTimeoutMs?: number
  /**
   * Keep each session's writes in a log under this directory, loaded when the session is next
   * used, so a restart (or a crash) loses at most the write in flight. Default: in memory only.
   */
  stateDir?: string
  /**
   * A Redis URL (`redis://host:port/db`, `rediss://` for TLS): sessions, saved snapshots and
   * uploaded scenarios in Redis, shared by every server on it. Wins over `stateDir`.
   */
  state?: string
  /** With `stateDir`: force each log append to the disk (fsync) before the write is applied. */
  fsync?: boolean
  /** With `stateDir` or `state`: delete logs of sessions unused this long, in ms; 0 keeps them. Default 7d. */
  sessionTtlMs?: number
}
