/**
 * End-to-end tests in Chromium: the example page on the sandbox worker, the
 * Playwright fixture, and the Storybook stories. Chromium is the system's (see
 * `scripts/find-chromium.ts`); Playwright never downloads a browser here.
 */
import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './scripts/find-chromium.ts'

const APP_URL = 'http://localhost:4173'
const STORYBOOK_URL = 'http://localhost:6006'
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
      command: 'vite build --config e2e/vite.config.ts && vite preview --config e2e/vite.config.ts',
      url: APP_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
    {
      command:
        'storybook build -o storybook-static --quiet && vite preview --outDir storybook-static --port 6006 --strictPort',
      url: STORYBOOK_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 180_000,
      env: { STORYBOOK_DISABLE_TELEMETRY: '1' },
    },
  ],
})
