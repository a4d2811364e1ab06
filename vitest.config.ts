import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Playwright specs (`e2e/**/*.spec.ts`) belong to the other runner.
    include: ['**/*.test.ts'],
    // `bench/.work/` holds the bench's throwaway projects, with test files of their own.
    exclude: [
      'node_modules/**',
      'e2e/**',
      'consumer/**',
      'storybook-static/**',
      'spec/dist/**',
      'bench/.work/**',
    ],
    testTimeout: 30_000,
    // A hook that starts a server waits as long as a test may: on a loaded machine 10 s was short.
    hookTimeout: 30_000,
  },
})
