import { defineConfig } from 'vitest/config'

// Playwright specs (`e2e/**/*.spec.ts`) belong to the other runner; `bench/.work/` holds the
// bench's throwaway projects, with test files of their own.
const exclude = [
  'node_modules/**',
  'e2e/**',
  'consumer/**',
  'storybook-static/**',
  'spec/dist/**',
  'bench/.work/**',
]

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // A hook that starts a server waits as long as a test may: on a loaded machine 10 s was short.
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['**/*.test.ts'],
          exclude: [...exclude, '**/*.serial.test.ts'],
        },
      },
      {
        // Tests of several processes under load (replicas on one Redis): one file at a time,
        // after the others, so that no other file shares the machine with them.
        extends: true,
        test: {
          name: 'serial',
          include: ['**/*.serial.test.ts'],
          exclude,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
