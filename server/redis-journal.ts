/**
 * @module
 * The journals in Redis: each entry (with its exchange, for HAR) pushed to its session's list and
 * to one of every session, each capped and expiring with the session, and published for the live
 * journals of every replica; every 50 ms in one round trip, not waited for: lost if refused.
 */
import type { Redis } from 'ioredis'
import type { JournalEntry, JournalExport, SharedJournal } from '../mocks/core/index.ts'
import type { KeptPlace } from './redis-kept.ts'
import { CLEAR_JOURNAL } from './redis-scripts.ts'

const FLUSH_MS = 50

export interface JournalPlace extends Pick<KeptPlace, 'redis' | 'call'> {
  key(...parts: string[]): string
  /** Most entries each list keeps. */
  limit: number
  /** Expiry of a session's keys, ms; `0`: none. */
  ttl: number
  counters: { journalBatches: number }
}

export function journalInRedis({ redis, call, key, limit, ttl, counters }: JournalPlace) {
  const [all, channel] = [key('journal'), key('journal', 'live')]
  const of = (session: string) => key('journal', session)
  const listeners = new Set<(entry: JournalEntry) => void>()
  let subscriber: Redis | undefined
  let failing = false
  const lost = (error: Error) => {
    if (!failing) console.error(`platform-sandbox: journal entries lost: ${error.message}`)
    failing = true
  }
  const pending: JournalExport[] = []
  const flush = () => {
    if (pending.length === 0) return // flushed at the close already
    const batch = redis.multi().publish(channel, JSON.stringify(pending.map(({ entry }) => entry)))
    const lists = new Set([all])
    for (const exported of pending.splice(0)) {
      const [line, own] = [JSON.stringify(exported), of(exported.entry.session)]
      batch.rpush(all, line).rpush(own, line)
      lists.add(own)
    }
    for (const list of lists) {
      batch.ltrim(list, -limit, -1)
      if (ttl > 0) batch.pexpire(list, ttl)
    }
    counters.journalBatches++
    call(() => batch.exec()).then(() => {
      failing = false
    }, lost)
  }
  redis.defineCommand('sandboxJournalClear', { numberOfKeys: 2, lua: CLEAR_JOURNAL })
  const read = (list: string) =>
    call(() => redis.lrange(list, 0, -1)).then((lines) =>
      lines.map((line) => JSON.parse(line) as JournalExport),
    )
  const journal: SharedJournal = {
    add(exported) {
      if (limit <= 0) return
      // At most `limit` waiting: past it, the oldest is lost.
      if (pending.push(exported) > limit) pending.shift()
      if (pending.length === 1) setTimeout(flush, FLUSH_MS).unref()
    },
    list: (session) => read(session === undefined ? all : of(session)),
    async clear(session) {
      if (session === undefined) {
        let cursor = '0'
        do {
          const [next, lists] = await call(() => redis.scan(cursor, 'MATCH', `${all}:*`))
          await call(() => redis.del(all, ...lists))
          cursor = next
        } while (cursor !== '0')
        return
      }
      const script = (redis as unknown as Record<string, (...args: string[]) => Promise<0>>)
        .sandboxJournalClear!
      await call(() => script.call(redis, of(session), all, session))
    },
    follow(listener) {
      listeners.add(listener)
      if (!subscriber) {
        // Its own connection (a subscribed one takes no other command), resubscribed by ioredis.
        subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null })
        subscriber.on('error', () => undefined)
        subscriber.on('message', (_channel: string, message: string) => {
          for (const entry of JSON.parse(message) as JournalEntry[])
            for (const each of listeners) each(entry)
        })
        subscriber.subscribe(channel).catch(() => undefined)
      }
      return () => listeners.delete(listener)
    },
  }
  return {
    journal,
    close() {
      flush()
      subscriber?.disconnect()
    },
  }
}
