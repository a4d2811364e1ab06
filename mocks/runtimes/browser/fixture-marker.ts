/**
 * @module
 * How a page knows that the Playwright fixture answers its requests: the fixture sets this
 * global before the page's scripts run, and `startSandboxWorker()` then registers no worker.
 */
export const FIXTURE_MARKER = '__platformSandboxFixture'

/** Whether the page runs under the Playwright fixture. */
export function isUnderPlaywrightFixture(): boolean {
  return (globalThis as Record<string, unknown>)[FIXTURE_MARKER] === true
}
