import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const project = `${root}consumer/project/`
const readme = readFileSync(`${root}README.md`, 'utf8')

/** The README's code blocks whose first line names a file of the consumer project. */
function recipes(): Map<string, string> {
  const found = new Map<string, string>()
  for (const [, body] of readme.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)) {
    const [first, ...rest] = body!.split('\n')
    const path = /^\/\/ ([\w./-]+)$/.exec(first ?? '')?.[1]
    if (path && existsSync(`${project}${path}`)) found.set(path, rest.join('\n'))
  }
  return found
}

describe("the README's recipes", () => {
  it('are the files the consumer test installs and runs, character for character', () => {
    const found = recipes()
    expect([...found.keys()].sort()).toEqual(
      [
        '.storybook/main.ts',
        '.storybook/preview.ts',
        'e2e/app.spec.ts',
        'scripts/typed-client.mjs',
        'src/AccountStatus.stories.ts',
        'src/bookings.test.ts',
        'src/recorded.test.ts',
        'src/main.ts',
      ].sort(),
    )
    for (const [path, text] of found) {
      expect(text, path).toBe(readFileSync(`${project}${path}`, 'utf8'))
    }
  })
})
