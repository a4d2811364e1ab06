/**
 * @module
 * How a page knows that the Playwright fixture answers its requests: the fixture sets
 * this global before any script of the page runs, and `startSandboxWorker()` then
 * resolves without registering the Service Worker (Playwright blocks Service Workers
 * under the fixture, and requests a worker answered would never reach it anyway).
 */
export const FIXTURE_MARKER = '__platformSandboxFixture'

/** Whether the page runs under the Playwright fixture. */
export function isUnderPlaywrightFixture(): boolean {
  return (globalThis as Record<string, unknown>)[FIXTURE_MARKER] === true
}
