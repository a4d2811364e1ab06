/**
 * @module
 * Every child process the contract check starts, so that none outlives it: they are stopped
 * when the check ends normally, when it throws, on Ctrl-C (SIGINT), on SIGTERM and SIGHUP,
 * and, as a last resort, when the Node process exits.
 */
import type { ChildProcess } from 'node:child_process'

const children = new Set<ChildProcess>()
const exitSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
let cleanups: (() => Promise<void>)[] = []
let exitHookInstalled = false
let signalsInstalled = false

function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  children.clear()
}

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  process.stderr.write(`\ncontract: ${signal} received, stopping Prism and the sandbox\n`)
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()))
  killAll()
  process.exit(signal === 'SIGINT' ? 130 : 143)
}

/**
 * Makes SIGINT, SIGTERM and SIGHUP run the registered cleanups, kill the children and exit.
 * For command-line entries only: a test runner handles signals itself.
 */
export function installSignalHandlers(): void {
  if (signalsInstalled) return
  signalsInstalled = true
  for (const signal of exitSignals) process.once(signal, onSignal)
}

/** Remembers `child` until it exits; it is killed if this process goes first. */
export function trackChild(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on('exit', killAll)
  }
  children.add(child)
  child.once('exit', () => children.delete(child))
}

/**
 * Runs `cleanup` (stop a server, for instance) if a signal ends the process before
 * `untrack` is called. Returns `untrack`.
 */
export function onInterrupt(cleanup: () => Promise<void>): () => void {
  cleanups.push(cleanup)
  return () => {
    cleanups = cleanups.filter((candidate) => candidate !== cleanup)
  }
}

/** How many tracked children are still running (for tests). */
export function runningChildren(): number {
  return [...children].filter((child) => child.exitCode === null && child.signalCode === null)
    .length
}
