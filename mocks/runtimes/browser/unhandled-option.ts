/**
 * @module
 * What msw does with a request no handler answers, named for both majors: msw 2 reads
 * `onUnhandledRequest`, msw 3 `onUnhandledFrame`, and each ignores the other's name (msw 3
 * would warn about every request the sandbox leaves alone).
 */
export type UnhandledStrategy = 'bypass' | 'warn' | 'error'

/** Spread into `worker.start()`: `worker.start({ ...unhandledOption('bypass'), quiet })`. */
export function unhandledOption(strategy: UnhandledStrategy): {
  onUnhandledRequest: UnhandledStrategy
  onUnhandledFrame: UnhandledStrategy
} {
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy }
}
