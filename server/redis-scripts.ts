/**
 * @module
 * The Lua scripts of the Redis store and journal: each one atomic, never interleaved with another.
 */

/**
 * What both scripts end with, once `version` is taken: the line appended, the session's last use
 * in the registry, and with a retention its keys' expiry and the registry's expired entries.
 */
const LOGGED = `
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5])
if tonumber(ARGV[4]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[4]))
end
return version`

/**
 * `KEYS`: version, log, registry, counter; `ARGV`: version held, line, now, ttl ms, session.
 * Refused (`false`) when the version held is not the current one.
 */
export const APPEND = `
local held = redis.call('GET', KEYS[1])
if (held or '') ~= ARGV[1] then return false end
local version = redis.call('INCR', KEYS[4])
redis.call('SET', KEYS[1], version)${LOGGED}`

/** The same keys; `ARGV`: -, the reset's line, now, ttl ms, session. The log starts again. */
export const RESET = `
local version = redis.call('INCR', KEYS[4])
redis.call('SET', KEYS[1], version)
redis.call('DEL', KEYS[2])${LOGGED}`

/** A session's journal emptied: `KEYS` its list, every session's (rewritten without it). */
export const CLEAR_JOURNAL = `
redis.call('DEL', KEYS[1])
local all = redis.call('LRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[2])
for _, line in ipairs(all) do
  if cjson.decode(line).entry.session ~= ARGV[1] then redis.call('RPUSH', KEYS[2], line) end
end
return 0`
