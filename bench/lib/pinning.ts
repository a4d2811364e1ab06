/**
 * @module
 * CPU pinning: the server under test on one core, the load generator (this
 * process) on another, so they do not steal each other's time. Uses `taskset`
 * when it exists and the machine has at least two cores; otherwise nothing is
 * pinned and the results say so.
 */
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

export interface Pinning {
  enabled: boolean
  /** Why pinning is off, or which cores are used. */
  note: string
  /** The command and arguments that run `command args` on the server's core. */
  wrap(command: string, args: string[]): [string, string[]]
}

const SERVER_CORE = 1
const LOAD_CORE = 0

export function setUpPinning(): Pinning {
  const cores = availableParallelism()
  const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0
  if (!hasTaskset || cores < 2) {
    return {
      enabled: false,
      note: hasTaskset ? `only ${cores} core: not pinned` : 'taskset not found: not pinned',
      wrap: (command, args) => [command, args],
    }
  }
  // -a: every thread of this process (libuv pool, GC helpers), not just the main one.
  const self = spawnSync('taskset', ['-a', '-cp', String(LOAD_CORE), String(process.pid)], {
    stdio: 'ignore',
  })
  if (self.status !== 0) {
    return {
      enabled: false,
      note: 'taskset failed: not pinned',
      wrap: (command, args) => [command, args],
    }
  }
  return {
    enabled: true,
    note: `servers on core ${SERVER_CORE}, load generator and in-process figures on core ${LOAD_CORE} (taskset)`,
    wrap: (command, args) => ['taskset', ['-c', String(SERVER_CORE), command, ...args]],
  }
}
