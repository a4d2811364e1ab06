/**
 * @module
 * The React leg of the consumer test: `project/` is an app made from create-vite 9's
 * react-ts template (React 19, Vite 8, TypeScript 7) on Node 24, and these steps run every
 * React recipe of the README there: the clients hey-api and orval generate from the app
 * document `platform-sandbox openapi --operations` writes (the shipped example operations,
 * `listHostBookings` among them), the type check, the Testing Library tests in Vitest
 * (jsdom), a production build that must hold no byte of the sandbox (and a sandbox build
 * without Vite's chunk-size warning), and Playwright (two workers) on the sandbox build and on
 * the Storybook react-vite build, each web server building what it serves: the app project
 * alone first, as a reader runs it, then every project.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { installNode24 } from '../legs.mjs'
import { clearViteLocks, freePort, run, StepError } from '../steps.mjs'

const here = dirname(new URL(import.meta.url).pathname)
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund']

/**
 * The TanStack Query file's exports: the 13 operations' 14, and the example operations' 10
 * (`listHostBookings`, `listMyNotifications`, `getUserProfile`: three reads with their options and
 * query key each, and the two paged ones' infinite query options and key too).
 */
const EXPORTS = 24

/** Strings any part of the sandbox would bring into a build. */
const SANDBOX_MARKERS = [/sandbox/i, /mockServiceWorker/, /\bmsw\b/i]

export const reactLeg = {
  name: 'node24-react',
  // What `project/` was made from: the guide's `npm create vite@<version>` names the same one.
  // Moving to a newer create-vite is a change made on purpose: its files, then this line.
  template: 'create-vite@9.3.0',
  title: 'Node 24, React 19, Vite 8, TypeScript 7, msw 3, TanStack Query, hey-api, orval',
  project: join(here, 'project'),
  msw: 'msw@^3',
  dependencies: ['react@^19', 'react-dom@^19', '@tanstack/react-query@^5'],
  devDependencies: [
    'typescript@^7',
    'vite@^8',
    'vitest@^5',
    '@vitejs/plugin-react@^6',
    '@types/react@^19',
    '@types/react-dom@^19',
    '@types/node@^24',
    'jsdom',
    '@testing-library/react@^16',
    '@testing-library/dom@^10',
    '@playwright/test@~1.65',
    'storybook@^10',
    '@storybook/react-vite@^10',
    'msw-storybook-addon@^3',
    'orval@^8',
  ],
  overlays: [],
  limitations: [],
  nodeBin: (log) => installNode24(log),
  steps: reactSteps,
}

async function reactSteps({ step, sh, project, env, log }) {
  const generated = await step(
    'r1. generate the clients (hey-api from codegen/, orval)',
    async () => {
      // The README's commands: a folder of its own, with TypeScript 6 (hey-api's issue #4235).
      const codegen = (...args) => run('npm', args, { cwd: join(project, 'codegen'), env })
      await codegen('init', '-y')
      await codegen('pkg', 'set', 'type=module', 'scripts.generate=openapi-ts')
      await codegen(
        'install',
        ...NPM_FLAGS,
        '-D',
        '@hey-api/openapi-ts@0.99.0',
        'typescript@~6.0.3',
      )
      // The app's `generate`: the app document with the operations of its own
      // (`platform-sandbox openapi --operations`), then hey-api and orval from it.
      log((await sh('npm', 'run', 'generate')).trim().split('\n').at(-1))
      const hooks = readFileSync(join(project, 'src/client/@tanstack/react-query.gen.ts'), 'utf8')
      const exported = hooks.match(/^export const \w+/gm) ?? []
      const own = ['listHostBookingsOptions', 'listHostBookingsQueryKey']
      if (
        exported.length !== EXPORTS ||
        !own.every((name) => exported.includes(`export const ${name}`)) ||
        /x-sandbox|__sandbox|\bprefer\b/i.test(hooks)
      ) {
        throw new StepError(
          `hey-api's TanStack Query file: ${exported.length} exports (${EXPORTS} expected, ${own.join(' and ')} among them), or a sandbox-only header`,
        )
      }
    },
  )
  if (!generated) return
  await step('r2. tsc -b (TypeScript 7 checks the generated clients too)', () =>
    sh('npx', 'tsc', '-b'),
  )
  await step('r3. vitest run (Testing Library in jsdom, cookie sign-in)', () =>
    sh('npx', 'vitest', 'run'),
  )
  await step('r4. msw init, vite build: no byte of the sandbox in production', async () => {
    await sh('npx', 'msw', 'init', 'public', '--save')
    await sh('npx', 'vite', 'build')
    const assets = join(project, 'dist', 'assets')
    const leaks = readdirSync(assets).flatMap((file) => {
      const text = readFileSync(join(assets, file), 'utf8')
      return SANDBOX_MARKERS.filter((marker) => marker.test(text)).map((m) => `${file}: ${m}`)
    })
    if (leaks.length > 0) throw new StepError(`the production build holds ${leaks.join(', ')}`)
    // The API's production address, from `.env.production`, is the one the build calls.
    const production = /^VITE_API_URL=(.+)$/m.exec(
      readFileSync(join(project, '.env.production'), 'utf8'),
    )?.[1]
    const bundle = readdirSync(assets)
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n')
    if (!production || !bundle.includes(production)) {
      throw new StepError(`the production build does not call ${production}`)
    }
    log(`production build: ${readdirSync(assets).join(', ')}, none of the sandbox`)
    // The sandbox build holds the sandbox's chunk: vite.config.ts raises the limit there only.
    const sandboxBuild = await sh('npx', 'vite', 'build', '--mode', 'sandbox')
    if (/larger than/i.test(sandboxBuild)) {
      throw new StepError(`vite build --mode sandbox warns of chunk sizes:\n${sandboxBuild}`)
    }
    const largest = readdirSync(assets)
      .map((file) => ({ file, kB: statSync(join(assets, file)).size / 1000 }))
      .sort((a, b) => b.kB - a.kB)[0]
    log(`sandbox build: no chunk-size warning; largest chunk ${largest?.file} ${largest?.kB} kB`)
  })
  // As a reader runs it: one project, in CI mode (no server reused), nothing built before;
  // the web servers build the app and Storybook themselves.
  const playwright = async (...args) => {
    const ports = { APP_PORT: await freePort(), STORYBOOK_PORT: await freePort() }
    clearViteLocks(project)
    const output = await run('npx', ['playwright', 'test', '--reporter=list', ...args], {
      cwd: project,
      env: { ...env, ...ports, CI: '1' },
      // Two builds before the first test (the app's and Storybook's), then the tests.
      timeoutMs: 420_000,
    })
    log(output.match(/Running \d+ tests? using \d+ workers?/)?.[0] ?? 'no Playwright summary')
  }
  await step('r5. Playwright --project app, before any Storybook build of ours', async () => {
    rmSync(join(project, 'storybook-static'), { recursive: true, force: true })
    await playwright('--project', 'app')
  })
  await step('r6. Playwright, 2 workers: every project (app, worker, storybook)', () =>
    playwright(),
  )
}
