/**
 * @module
 * The server's options and their defaults, shared by the CLI and the programmatic API
 * (the CLI's checks of each value are in `cli-options.ts`).
 */
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
