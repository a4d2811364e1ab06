/**
 * @module
 * The global the Playwright fixture sets before the page's scripts run, so that
 * `startSandboxWorker()` registers no worker.
 */
export const FIXTURE_MARKER = '__platformSandboxFixture'

/** Whether the page runs under the Playwright fixture. */
export function isUnderPlaywrightFixture(): boolean {
  return (globalThis as Record<string, unknown>)[FIXTURE_MARKER] === true
}
