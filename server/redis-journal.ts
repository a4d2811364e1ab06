/**
 * @module
 * The journals in Redis (`--state redis://`): each entry (with its exchange, for the HAR export)
 * pushed to its session's list and to one list of every session, each capped, expiring with the
 * session's retention, and published, so that a live journal on any replica shows it. A write
 * is not waited for: one Redis refuses is lost (reported once), the request answered already.
 */
import type { Redis } from 'ioredis'
import type { JournalEntry, JournalExport, SharedJournal } from '../mocks/core/index.ts'
import type { KeptPlace } from './redis-kept.ts'
import { CLEAR_JOURNAL } from './redis-scripts.ts'

export interface JournalPlace extends Pick<KeptPlace, 'redis' | 'call'> {
  key(...parts: string[]): string
  /** Most entries each list keeps. */
  limit: number
  /** Expiry of a session's keys, ms; `0`: none. */
  ttl: number
}

export function journalInRedis({ redis, call, key, limit, ttl }: JournalPlace) {
  const all = key('journal')
  const channel = key('journal', 'live')
  const of = (session: string) => key('journal', session)
  const listeners = new Set<(entry: JournalEntry) => void>()
  let subscriber: Redis | undefined
  let failing = false
  const lost = (error: Error) => {
    if (!failing) console.error(`platform-sandbox: journal entries lost: ${error.message}`)
    failing = true
  }
  redis.defineCommand('sandboxJournalClear', { numberOfKeys: 2, lua: CLEAR_JOURNAL })
  const read = (list: string) =>
    call(() => redis.lrange(list, 0, -1)).then((lines) =>
      lines.map((line) => JSON.parse(line) as JournalExport),
    )
  const journal: SharedJournal = {
    add(exported) {
      const { entry } = exported
      if (limit <= 0) return
      const line = JSON.stringify(exported)
      const batch = redis.multi()
      for (const list of [of(entry.session), all]) {
        batch.rpush(list, line).ltrim(list, -limit, -1)
        if (ttl > 0) batch.pexpire(list, ttl)
      }
      batch.publish(channel, JSON.stringify(entry))
      call(() => batch.exec()).then(() => {
        failing = false
      }, lost)
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
      const scripts = redis as unknown as Record<
        'sandboxJournalClear',
        (...args: string[]) => Promise<number>
      >
      await call(() => scripts.sandboxJournalClear(of(session), all, session))
    },
    follow(listener) {
      listeners.add(listener)
      if (!subscriber) {
        // A connection of its own (a subscribed one takes no other command), resubscribed by
        // ioredis after a reconnection.
        subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null })
        subscriber.on('error', () => undefined)
        subscriber.on('message', (_channel: string, message: string) => {
          const entry = JSON.parse(message) as JournalEntry
          for (const each of listeners) each(entry)
        })
        subscriber.subscribe(channel).catch(() => undefined)
      }
      return () => listeners.delete(listener)
    },
  }
  return { journal, close: () => subscriber?.disconnect() }
}
