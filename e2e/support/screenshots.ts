/**
 * @module
 * Screenshots kept after the run, under `test-results/screenshots/`, and attached
 * to the test's report.
 */
import type { Locator, Page, TestInfo } from '@playwright/test'

export async function keepScreenshot(
  target: Page | Locator,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const path = `test-results/screenshots/${name}.png`
  const options = 'goto' in target ? { path, fullPage } : { path }
  await target.screenshot(options)
  await testInfo.attach(name, { path, contentType: 'image/png' })
}
