/**
 * @module
 * Small statistics and timing helpers.
 */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Milliseconds `task` takes. */
export async function time(task: () => unknown): Promise<number> {
  const started = performance.now()
  await task()
  return performance.now() - started
}

/** Runs a full garbage collection when the process was started with `--expose-gc`. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) return false
  gc()
  gc()
  return true
}
