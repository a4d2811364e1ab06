/**
 * @module
 * How the runtimes word the recorded answers that break the merged contract.
 */

/** `1 recorded answer breaks` or `3 recorded answers break`, then "the merged contract:". */
export function breakingAnswersHeading(count: number): string {
  return count === 1
    ? '1 recorded answer breaks the merged contract:'
    : `${count} recorded answers break the merged contract:`
}

/** The warning the Node entries and the browser worker print, one problem per line. */
export function breakingAnswersWarning(problems: readonly string[]): string {
  return `[sandbox] ${breakingAnswersHeading(problems.length)}\n  ${problems.join('\n  ')}`
}
