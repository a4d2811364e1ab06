import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
/** The consumer test's projects: the React app, the vanilla TypeScript one, the Next.js app. */
const projects = ['consumer/react/project/', 'consumer/project/', 'consumer/next/project/']
const readme = readFileSync(`${root}README.md`, 'utf8')

/**
 * The README's code blocks whose first line names a file of a consumer project, keyed by
 * that project and path: the project whose file the block equals, else the first that has it.
 */
function recipes(): Map<string, { text: string; file: string }> {
  const found = new Map<string, { text: string; file: string }>()
  for (const [, body] of readme.matchAll(/```(?:ts|tsx|js)\n([\s\S]*?)```/g)) {
    const [first, ...rest] = body!.split('\n')
    const path = /^\/\/ ([\w./-]+)$/.exec(first ?? '')?.[1]
    if (!path) continue
    const text = rest.join('\n')
    const candidates = projects.filter((project) => existsSync(`${root}${project}${path}`))
    const project =
      candidates.find((candidate) => readFileSync(`${root}${candidate}${path}`, 'utf8') === text) ??
      candidates[0]
    if (project) found.set(`${project}${path}`, { text, file: `${root}${project}${path}` })
  }
  return found
}

describe("the README's recipes", () => {
  it('are the files the consumer test installs and runs, character for character', () => {
    const found = recipes()
    expect([...found.keys()].sort()).toEqual(
      [
        'consumer/react/project/.storybook/main.ts',
        'consumer/react/project/.storybook/preview.tsx',
        'consumer/react/project/codegen/openapi-ts.config.ts',
        'consumer/react/project/e2e/bookings.spec.ts',
        'consumer/react/project/e2e/devtools.spec.ts',
        'consumer/react/project/e2e/stories.spec.ts',
        'consumer/react/project/orval.config.ts',
        'consumer/react/project/playwright.config.ts',
        'consumer/react/project/src/AccountStatus.stories.tsx',
        'consumer/react/project/src/AccountStatus.tsx',
        'consumer/react/project/src/App.test.tsx',
        'consumer/react/project/src/App.tsx',
        'consumer/react/project/src/DeclineBooking.tsx',
        'consumer/react/project/src/api.ts',
        'consumer/react/project/src/main.tsx',
        'consumer/react/project/src/orval.test.ts',
        'consumer/next/project/app/actions.ts',
        'consumer/next/project/app/bookings.tsx',
        'consumer/next/project/e2e/bookings.spec.ts',
        'consumer/next/project/playwright.config.ts',
        'consumer/project/e2e/app.spec.ts',
        'consumer/project/scripts/typed-client.mjs',
        'consumer/project/src/bookings.test.ts',
        'consumer/project/src/recorded.test.ts',
        'consumer/project/src/learned.test.ts',
        'consumer/project/src/main.ts',
      ].sort(),
    )
    for (const [path, { text, file }] of found) {
      expect(text, path).toBe(readFileSync(file, 'utf8'))
    }
  })
})
