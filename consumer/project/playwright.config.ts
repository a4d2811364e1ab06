import { defineConfig } from '@playwright/test'

const appUrl = `http://localhost:${process.env.APP_PORT ?? 4173}`
const storybookUrl = `http://localhost:${process.env.STORYBOOK_PORT ?? 6006}`

export default defineConfig({
  testDir: 'e2e',
  use: {
    browserName: 'chromium',
    // The system's Chromium; leave `launchOptions` out to use Playwright's own browsers.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // The sandbox fixture answers the page (`platform-sandbox/playwright`).
    { name: 'app', testMatch: 'app.spec.ts', use: { baseURL: appUrl } },
    // No fixture: the page's own sandbox worker answers.
    { name: 'app-worker', testMatch: 'app-worker.spec.ts', use: { baseURL: appUrl } },
    { name: 'storybook', testMatch: 'storybook.spec.ts', use: { baseURL: storybookUrl } },
  ],
  webServer: [
    {
      // `npm run build:sandbox` first: a build whose page starts the sandbox worker. Served in
      // its mode: Vite 8.4 refuses a second `vite preview` of one project in one mode, and
      // Storybook's below is the other.
      command: `npx vite preview --mode sandbox --port ${new URL(appUrl).port} --strictPort`,
      url: appUrl,
      reuseExistingServer: false,
    },
    {
      // `npm run build-storybook` first.
      command: `npx vite preview --outDir storybook-static --port ${new URL(storybookUrl).port} --strictPort`,
      url: storybookUrl,
      reuseExistingServer: false,
    },
  ],
})
