/**
 * @module
 * `--state redis://host:port/db`: the store (`mocks/core/state-store.ts`) in Redis, shared by
 * every replica. A session's log is a list, its version a number a write advances in one script
 * (appended only when the version this process holds is current, else refused as stale); the
 * registry a sorted set of last uses; keys expire after the retention; saved snapshots and
 * uploaded scenarios a hash each, with a counter a replica compares to know it is behind. A
 * write is acknowledged once Redis has it; an unreachable Redis is a 503 with `Retry-After`.
 * ioredis is loaded only here, and this module only with a Redis URL.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import {
  type LoggedChange,
  SandboxError,
  type SavedSnapshotRecord,
  SESSION_HEADER,
  type SessionLog,
  StaleCopyError,
  type StateStore,
} from '../mocks/core/index.ts'
import type { StoreMetrics } from './metrics.ts'
import { journalInRedis } from './redis-journal.ts'
import { keptInRedis } from './redis-kept.ts'
import { APPEND, RESET } from './redis-scripts.ts'

const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000
const RETRY_AFTER_SECONDS = 2
/** Request headers a replay needs, as the state directory keeps them; the session is the key's. */
const KEPT_HEADERS = ['authorization', 'content-type', 'cookie'] as const

/** Round trips to Redis and those that failed, for the metrics. */
export interface StoreCounters {
  roundTrips: number
  failures: number
  /** Of the round trips, the journal's batches: sent every 50 ms at most, never waited for. */
  journalBatches: number
}

export interface RedisStoreOptions {
  /** Prefix of every key. Default `platform-sandbox:`. */
  prefix?: string | undefined
  /** Keys of sessions unused this long expire; `0` keeps them. Default 7 days. */
  sessionTtlMs?: number | undefined
  /** Told of each round trip (the server's metrics). */
  metrics?: StoreMetrics | undefined
  /** Most entries each journal list keeps (a session's, every session's). Default 1000. */
  journalLimit?: number | undefined
}

export type RedisState = Awaited<ReturnType<typeof openRedisStore>>

/** What a failed command means to a caller: nothing was recorded, try again. */
function unreachable(error: unknown): SandboxError {
  if (error instanceof SandboxError) return error
  return new SandboxError(
    503,
    'The state store (Redis) could not be reached: nothing was changed, try again later',
    [`redis: ${(error as Error).message}`],
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  )
}

/** The URL with its password hidden, for messages. */
export function redisPlace(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/** Connects to `url` (`redis://`, `rediss://`, credentials in it); rejects when it cannot. */
export async function openRedisStore(url: string, options: RedisStoreOptions = {}) {
  const prefix = options.prefix ?? 'platform-sandbox:'
  const ttl = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS
  // Fail fast while disconnected instead of queueing: the request answers 503, ioredis
  // reconnects by itself.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    commandTimeout: 5_000,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  })
  redis.on('error', () => undefined) // each command reports its own failure
  const scripts = redis as unknown as Record<
    'sandboxAppend' | 'sandboxReset',
    (...args: (string | number)[]) => Promise<number | null>
  >
  redis.defineCommand('sandboxAppend', { numberOfKeys: 4, lua: APPEND })
  redis.defineCommand('sandboxReset', { numberOfKeys: 4, lua: RESET })
  const counters: StoreCounters = { roundTrips: 0, failures: 0, journalBatches: 0 }
  const report = (what: string) => (error: unknown) =>
    console.error(`platform-sandbox: failed to ${what} in Redis: ${(error as Error).message}`)
  async function call<T>(command: () => Promise<T>): Promise<T> {
    counters.roundTrips++
    try {
      const result = await command()
      options.metrics?.roundTrip()
      return result
    } catch (error) {
      counters.failures++
      options.metrics?.roundTrip(true)
      throw unreachable(error)
    }
  }
  const where = redisPlace(url)
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    const unreachable = new Error(`cannot reach Redis at ${where} (${(error as Error).message})`)
    unreachable.name = 'RedisUnreachable'
    throw unreachable
  }
  const key = (...parts: string[]) => `${prefix}${parts.join(':')}`
  const registry = key('sessions')
  const counter = key('version')
  const keysOf = (session: string) => [key('v', session), key('log', session), registry, counter]
  /** The version of each session's log this process holds (what its copy in memory is from). */
  const held = new Map<string, string>()
  /** Appends `line` to the session's log when the version held is current, else stale. */
  async function append(session: string, line: string) {
    const version = await call(() => {
      const args = [held.get(session) ?? '', line, Date.now(), ttl, session]
      return scripts.sandboxAppend(...keysOf(session), ...args)
    })
    if (version === null) {
      held.delete(session)
      throw new StaleCopyError(session)
    }
    held.set(session, String(version))
  }
  /** Each session's version check in flight, and the one asked for after it. */
  const checks = new Map<
    string,
    { running?: Promise<boolean>; next?: Promise<boolean> | undefined }
  >()

  const log: SessionLog = {
    async load(session) {
      const [created, version, lines] = await call(async () => {
        const [versionKey, logKey] = keysOf(session)
        // The first load anywhere takes the session's first version: it answers "created",
        // and a session only read so far is not created again on another instance.
        const first = `new-${randomUUID()}`
        const batch = redis.multi()
        if (ttl > 0) batch.set(versionKey!, first, 'PX', ttl, 'NX')
        else batch.set(versionKey!, first, 'NX')
        batch.get(versionKey!).lrange(logKey!, 0, -1).zadd(registry, 'XX', Date.now(), session)
        if (ttl > 0) batch.pexpire(versionKey!, ttl).pexpire(logKey!, ttl)
        const replies = (await batch.exec()) ?? []
        for (const [error] of replies) if (error) throw error
        const [made, got, log] = replies.map(([, reply]) => reply)
        return [made === 'OK', got as string, log as string[]] as const
      })
      held.set(session, version)
      if (created) return undefined
      return lines.map((line) => {
        const change = JSON.parse(line) as LoggedChange
        if (!('request' in change)) return change
        const headers = { ...change.request.headers, [SESSION_HEADER]: session }
        return { ...change, request: { ...change.request, headers } }
      })
    },
    async write(session, { time, request }) {
      const headers: Record<string, string> = {}
      for (const name of KEPT_HEADERS) {
        const value = request.headers[name]
        if (value !== undefined) headers[name] = value
      }
      await append(session, JSON.stringify({ time, request: { ...request, headers } }))
    },
    note: (session, note) => append(session, JSON.stringify(note)),
    async reset(session, reset) {
      const line = JSON.stringify({ reset })
      const version = await call(() =>
        scripts.sandboxReset(...keysOf(session), '', line, Date.now(), ttl, session),
      )
      held.set(session, String(version))
    },
    async drop(session) {
      const [versionKey, logKey] = keysOf(session)
      held.delete(session)
      // The core does not wait for a drop: a failure is reported here, the log expires in time.
      await call(() =>
        redis.multi().del(versionKey!, logKey!).zrem(registry, session).exec(),
      ).catch(report(`drop the log of session "${session}"`))
    },
    async touch(session) {
      const [versionKey, logKey] = keysOf(session)
      const batch = redis.multi().zadd(registry, 'XX', Date.now(), session)
      if (ttl > 0) batch.pexpire(versionKey!, ttl).pexpire(logKey!, ttl)
      // Marking a use may fail quietly: the next write or load marks it again.
      await call(() => batch.exec()).catch(() => undefined)
    },
    async list(unusedSince) {
      return call(async () => {
        // Those past the retention have expired: their entries go too.
        if (ttl > 0) await redis.zremrangebyscore(registry, '-inf', Date.now() - ttl)
        const until = unusedSince ? `(${unusedSince.getTime()}` : '+inf'
        return redis.zrangebyscore(registry, '-inf', until)
      })
    },
    async describe() {
      const ids = (await log.list()).reverse()
      // Each log's first line (the reset it starts from, if any), pipelined; none: it expired.
      const firsts = await call(() => Promise.all(ids.map((id) => redis.lindex(key('log', id), 0))))
      return ids.flatMap((id, index) => {
        const first = firsts[index] ? (JSON.parse(firsts[index]) as LoggedChange) : undefined
        return first ? [{ id, ...('reset' in first ? { reset: first.reset } : {}) }] : []
      })
    },
    current(session) {
      // Each caller's check starts after it asked: one in flight per session, and the next
      // one shared by every caller that asked meanwhile.
      const state = checks.get(session) ?? {}
      checks.set(session, state)
      if (state.next) return state.next
      const check = async () => {
        const before = held.get(session)
        const version = await call(() => redis.get(key('v', session)))
        // Moved meanwhile by this process's own write or load: newer than the version read.
        const now = held.get(session)
        return now !== undefined && (now === (version ?? '') || now !== before)
      }
      const settle = (running: Promise<boolean>) => {
        state.running = running
        const done = () => {
          if (state.running === running && !state.next) checks.delete(session)
        }
        running.then(done, done)
        return running
      }
      if (!state.running) return settle(check())
      const next = state.running.then(
        () => undefined,
        () => undefined,
      )
      state.next = next.then(() => {
        state.next = undefined
        return settle(check())
      })
      return state.next
    },
  }

  const kept = { redis, call, report, where, versionKey: key('kept', 'version') }
  const journals = journalInRedis({
    redis,
    call,
    key,
    limit: options.journalLimit ?? 1000,
    ttl,
    counters,
  })
  const store: StateStore = {
    sessions: log,
    journal: journals.journal,
    snapshots: keptInRedis<SavedSnapshotRecord>(kept, key('snapshots')),
    scenarios: keptInRedis<unknown>(kept, key('scenarios')),
    keptVersion: async () => (await call(() => redis.get(kept.versionKey))) ?? '0',
    // Readiness: Redis answers a ping now (a refusal is the 503 every request gets).
    async ready() {
      await call(() => redis.ping())
    },
  }
  return {
    store,
    where,
    counters,
    /** Whether Redis answers now (the readiness probe). */
    ready: async () => (await call(() => redis.ping()).catch(() => '')) === 'PONG',
    /** Sessions the registry holds (for the banner). */
    sessionCount: () => call(() => redis.zcard(registry)),
    async close(): Promise<void> {
      journals.close()
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
