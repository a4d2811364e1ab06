/**
 * @module
 * Saved snapshots and uploaded scenarios in Redis (`--state redis://`), a hash each, and one
 * counter every save and delete of either bumps, so that a replica behind it reads them again.
 * A save without `replace` is `HSETNX`: a name another replica took meanwhile is a 409.
 */
import type { Redis } from 'ioredis'
import type { KeptByName } from '../mocks/core/index.ts'
import { conflict } from '../mocks/core/index.ts'

export interface KeptPlace {
  redis: Redis
  /** Runs a command, counted; a failure is a 503. */
  call<T>(command: () => Promise<T>): Promise<T>
  /** Reports the failure of what the core does not wait for. */
  report(what: string): (error: unknown) => void
  /** The Redis URL without its password. */
  where: string
  versionKey: string
}

/** The documents of one kind, kept in the hash `hash`. */
export function keptInRedis<T>(
  { redis, call, report, where, versionKey }: KeptPlace,
  hash: string,
): KeptByName<T> {
  const change = (edit: (batch: ReturnType<Redis['multi']>) => unknown) =>
    call(async () => {
      const batch = redis.multi()
      edit(batch)
      const replies = (await batch.incr(versionKey).exec()) ?? []
      for (const [error] of replies) if (error) throw error
      return replies[0]?.[1]
    })
  return {
    where: `${where} (${hash})`,
    async list() {
      const all = await call(() => redis.hgetall(hash))
      return Object.keys(all)
        .sort()
        .map((name) => ({ source: `${hash} ${name}`, value: JSON.parse(all[name]!) as T }))
    },
    async save(name, value, options) {
      const json = JSON.stringify(value)
      if (options?.replace !== false) return void (await change((b) => b.hset(hash, name, json)))
      // Taken by another replica since this one last read them: the name is not free.
      if ((await change((b) => b.hsetnx(hash, name, json))) === 0) {
        throw conflict(
          `Name "${name}" is taken (saved meanwhile through another instance): save under another name, or with "replace": true to replace it`,
        )
      }
    },
    async delete(name) {
      await change((b) => b.hdel(hash, name)).catch(report(`delete "${name}" of ${hash}`))
    },
  }
}
