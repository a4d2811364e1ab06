import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Playwright specs (`e2e/**/*.spec.ts`) belong to the other runner.
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'e2e/**', 'consumer/**', 'storybook-static/**', 'spec/dist/**'],
    testTimeout: 30_000,
  },
})
