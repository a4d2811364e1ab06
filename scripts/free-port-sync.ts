/**
 * @module
 * A free TCP port on 127.0.0.1, found synchronously (for config files that cannot await):
 * a child process listens on port 0, prints the port the OS gave it and exits.
 */
import { execFileSync } from 'node:child_process'

const PROBE = `const s = require('node:net').createServer().listen(0, '127.0.0.1', () => {
  process.stdout.write(String(s.address().port)); s.close()
})`

/** A port that was free a moment ago; the caller binds it with `strictPort`. */
export function freePortSync(): number {
  return Number(execFileSync(process.execPath, ['-e', PROBE], { encoding: 'utf8' }))
}

/**
 * The port kept in `process.env[name]`, or a free one stored there, so that every process of
 * a run (Playwright's runner and its workers, which inherit the environment) agrees on it.
 */
export function sharedFreePort(name: string): number {
  const known = Number(process.env[name])
  if (Number.isInteger(known) && known > 0) return known
  const port = freePortSync()
  process.env[name] = String(port)
  return port
}
