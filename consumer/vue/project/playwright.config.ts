import process from 'node:process'
import { defineConfig } from '@playwright/test'

const port = Number(process.env.APP_PORT ?? 4173)

export default defineConfig({
  testDir: './e2e',
  // Each test gets a sandbox of its own from the fixture, so tests run side by side.
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    // The system's Chromium; leave `launchOptions` out to use Playwright's own browsers.
    launchOptions: { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] },
  },
  webServer: {
    // A build whose page starts the sandbox worker (`.env.sandbox`), served as in production.
    command: `npx vite build --mode sandbox && npx vite preview --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
  },
})
