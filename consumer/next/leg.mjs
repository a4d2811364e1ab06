/**
 * @module
 * The Next.js leg of the consumer test: `project/` is a Next.js 16 App Router app (React 19,
 * TypeScript 5 as create-next-app installs it) on Node 24, whose server action calls the
 * standalone sandbox with `sandboxHeaders()`. The steps: `next build` (which type-checks the
 * app against the package's declarations), no trace of the sandbox in the files the browser
 * loads, then Playwright in two workers against `next start` and `npx platform-sandbox`,
 * each test in a session of its own (`sandboxServer`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { installNode24 } from '../legs.mjs'
import { freePort, run, StepError } from '../steps.mjs'

const here = dirname(new URL(import.meta.url).pathname)

/** Strings only the sandbox's own code holds; the browser's files must have none. */
const SANDBOX_MARKERS = ['x-sandbox-session', 'sandbox_session', 'platform-sandbox']

export const nextLeg = {
  name: 'node24-next16',
  // What `project/` was made from: the guide's `npx create-next-app@<version>` names the same one.
  template: 'create-next-app@16.4.3',
  title: 'Node 24, Next.js 16 (App Router), React 19, TypeScript 5 (as create-next-app), msw 3',
  project: join(here, 'project'),
  msw: 'msw@^3',
  dependencies: ['next@^16', 'react@^19', 'react-dom@^19'],
  devDependencies: [
    'typescript@^5',
    '@types/node@^24',
    '@types/react@^19',
    '@types/react-dom@^19',
    '@playwright/test@~1.65',
  ],
  overlays: [],
  limitations: [],
  nodeBin: (log) => installNode24(log),
  steps: nextSteps,
}

async function nextSteps({ step, project, env, log }) {
  const apiUrl = `http://localhost:${await freePort()}`
  // The app reads API_URL on its server, NEXT_PUBLIC_API_URL (inlined by the build) in the browser.
  const appEnv = {
    ...env,
    NEXT_TELEMETRY_DISABLED: '1',
    API_URL: apiUrl,
    NEXT_PUBLIC_API_URL: apiUrl,
    APP_PORT: String(await freePort()),
  }
  const built = await step('n1. next build (type check included)', () =>
    run('npx', ['next', 'build'], { cwd: project, env: appEnv }),
  )
  if (!built) return
  await step('n2. the browser files hold nothing of the sandbox', () => {
    const files = readdirSync(join(project, '.next', 'static'), { recursive: true })
      .map((file) => join(project, '.next', 'static', String(file)))
      .filter((file) => file.endsWith('.js'))
    const leaked = files.filter((file) => {
      const text = readFileSync(file, 'utf8')
      return SANDBOX_MARKERS.some((marker) => text.includes(marker))
    })
    if (files.length === 0) throw new StepError('next build wrote no browser scripts')
    if (leaked.length > 0) throw new StepError(`sandbox code in: ${leaked.join(', ')}`)
    log(`${files.length} browser scripts, none with ${SANDBOX_MARKERS.join(', ')}`)
  })
  await step('n3. Playwright, 2 workers, on next start and npx platform-sandbox', async () => {
    const output = await run('npx', ['playwright', 'test', '--reporter=list'], {
      cwd: project,
      env: appEnv,
    })
    if (!/using 2 workers/.test(output) || !/4 passed/.test(output)) {
      throw new StepError(`expected 4 tests passed in 2 workers:\n${output}`)
    }
    for (const line of output.split('\n')) if (/✓|passed/.test(line)) log(line.trim())
  })
}
