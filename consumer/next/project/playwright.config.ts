import { defineConfig } from '@playwright/test'
import type { SandboxTestOptions } from 'platform-sandbox/playwright'

// The app reads the same variables: API_URL on its server, NEXT_PUBLIC_API_URL in the browser.
const apiUrl = process.env.API_URL ?? 'http://localhost:4010'
const appUrl = `http://localhost:${process.env.APP_PORT ?? 3000}`

export default defineConfig<SandboxTestOptions>({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  use: {
    baseURL: appUrl,
    // Each test gets a session of its own on this server, as the sandbox_session cookie.
    sandboxServer: apiUrl,
    browserName: 'chromium',
    // The system's Chromium; leave `launchOptions` out to use Playwright's own browsers.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    },
  },
  webServer: [
    {
      command: `npx platform-sandbox --port ${new URL(apiUrl).port} --quiet`,
      url: `${apiUrl}/__sandbox/health`,
      reuseExistingServer: false,
    },
    {
      // `npx next build` first.
      command: `npx next start --port ${new URL(appUrl).port}`,
      url: appUrl,
      reuseExistingServer: false,
    },
  ],
})
