import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './scripts/find-chromium.ts'

const executablePath = findChromium()
export default defineConfig({
  testDir: 'e2e',
  testMatch: ['dashboard.spec.ts', 'api-reference.spec.ts'],
  outputDir: 'test-results',
  workers: 2,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: executablePath ? { executablePath, args: chromiumArgs } : { args: chromiumArgs },
  },
})
