/**
 * End-to-end tests in Chromium: the example page on the sandbox worker, the
 * Playwright fixture, and the Storybook stories. Chromium is the system's (see
 * `scripts/find-chromium.ts`); Playwright never downloads a browser here.
 *
 * The example page, the Storybook build and the standalone sandbox (for the fixture's
 * `sandboxServer`) are served on ports free at the start of the run, never on fixed ones,
 * and a server already running is never reused: another app's `vite preview` on 4173 is
 * not ours to test.
 */
import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './scripts/find-chromium.ts'
import { sharedFreePort } from './scripts/free-port-sync.ts'

const APP_PORT = sharedFreePort('SANDBOX_E2E_APP_PORT')
const STORYBOOK_PORT = sharedFreePort('SANDBOX_E2E_STORYBOOK_PORT')
const SERVER_PORT = sharedFreePort('SANDBOX_E2E_SERVER_PORT')
const APP_URL = `http://localhost:${APP_PORT}`
const STORYBOOK_URL = `http://localhost:${STORYBOOK_PORT}`
const executablePath = findChromium()

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: APP_URL,
    browserName: 'chromium',
    launchOptions: executablePath ? { executablePath, args: chromiumArgs } : { args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: `vite build --config e2e/vite.config.ts && vite preview --config e2e/vite.config.ts --port ${APP_PORT} --strictPort`,
      url: APP_URL,
      reuseExistingServer: false,
      timeout: 120_000,
    },
    {
      command: `storybook build -o storybook-static --quiet && vite preview --outDir storybook-static --port ${STORYBOOK_PORT} --strictPort`,
      url: STORYBOOK_URL,
      reuseExistingServer: false,
      timeout: 180_000,
      env: { STORYBOOK_DISABLE_TELEMETRY: '1' },
    },
    {
      command: `node bin/platform-sandbox.mjs --port ${SERVER_PORT} --quiet`,
      url: `http://localhost:${SERVER_PORT}/__sandbox/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
