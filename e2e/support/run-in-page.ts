/**
 * @module
 * Runs plain sandbox requests through the Service Worker of a page that started
 * `startSandboxWorker` (it exposes `window.__sandbox`), one after the other, and
 * returns what `fetch` saw. Shared with the conformance suite's browser runtime.
 */
import type { Page } from '@playwright/test'
import type { SandboxRequest } from '../../mocks/core/index.ts'
import type { SentResponse } from '../../mocks/runtimes/browser/index.ts'

export async function runThroughWorker(
  page: Page,
  requests: readonly SandboxRequest[],
): Promise<SentResponse[]> {
  await page.waitForFunction(() => window.__sandbox !== undefined)
  return page.evaluate(async (list) => {
    const controls = window.__sandbox
    if (!controls) throw new Error('Failed to run requests: the sandbox worker is not started')
    const results = []
    for (const request of list) results.push(await controls.send(request))
    return results
  }, requests as SandboxRequest[])
}
