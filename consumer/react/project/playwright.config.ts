import { defineConfig } from '@playwright/test'

const appUrl = `http://localhost:${process.env.APP_PORT ?? 4173}`
const storybookUrl = `http://localhost:${process.env.STORYBOOK_PORT ?? 6006}`

export default defineConfig({
  testDir: 'e2e',
  // Each test gets a sandbox of its own from the fixture, so tests run side by side.
  fullyParallel: true,
  workers: 2,
  use: {
    baseURL: appUrl,
    browserName: 'chromium',
    // The system's Chromium; leave `launchOptions` out to use Playwright's own browsers.
    launchOptions: { executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] },
  },
  projects: [
    // A spec file no project matches is not run, without a word: list each one.
    { name: 'app', testMatch: ['bookings.spec.ts', 'network.spec.ts'] },
    // Without the fixture: the page's own worker answers, and the devtools are mounted.
    { name: 'worker', testMatch: 'devtools.spec.ts' },
    { name: 'storybook', testMatch: 'stories.spec.ts', use: { baseURL: storybookUrl } },
  ],
  webServer: [
    {
      // A build whose page starts the sandbox worker (`.env.sandbox`), served as in production.
      // `--mode sandbox` on the preview too: Vite 8.4 refuses a second `vite preview` of one
      // project in one mode, and Storybook's below is the other.
      command: `npx vite build --mode sandbox && npx vite preview --mode sandbox --port ${new URL(appUrl).port} --strictPort`,
      url: appUrl,
      reuseExistingServer: !process.env.CI,
    },
    {
      // Builds Storybook, then serves the build, as the app's server does: nothing to run first,
      // even for `--project app` (Playwright starts every web server, whatever the project).
      command: `npx storybook build --quiet && npx vite preview --outDir storybook-static --port ${new URL(storybookUrl).port} --strictPort`,
      url: storybookUrl,
      reuseExistingServer: !process.env.CI,
      // Both builds run before the first test; Storybook's takes longer than Playwright's 60 s
      // default allows on a slow machine.
      timeout: 180_000,
    },
  ],
})
