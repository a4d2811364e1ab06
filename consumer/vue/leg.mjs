/**
 * @module
 * The Vue leg of the consumer test: the app is made as the Vue guide makes it, with
 * `npm create vue@3.24.0 -- --ts --vitest --playwright` (Vue 3.5, Vite 8, Vitest 4.1, which
 * brings msw 2.15, vue-tsc 3, Playwright 1.65), then `project/` (the guide's files) is copied
 * over it. The steps: `vue-tsc --build` and the e2e folder's tsconfig, the @vue/test-utils test in
 * Vitest, a production build that holds no byte of the sandbox and calls `.env.production`'s
 * API, then Playwright in two workers on a sandbox build, each test in a session of its own.
 */
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { installNode24 } from '../legs.mjs'
import { freePort, run, StepError } from '../steps.mjs'

const here = dirname(new URL(import.meta.url).pathname)

/**
 * Strings only the sandbox's code holds (not `sandbox` alone: Vue's runtime names the iframe
 * attribute), and the sandbox's address, which a production build must not call.
 */
const SANDBOX_MARKERS = [
  /__sandbox/,
  /platform-sandbox/,
  /x-sandbox/,
  /sandbox_session/,
  /mockServiceWorker/,
  /\bmsw\b/,
  /localhost:4010/,
]

export const vueLeg = {
  name: 'node24-vue',
  // What the guide's `npm create vue@<version>` names; a newer one is a change made on purpose.
  template: 'create-vue@3.24.0',
  title: 'Node 24, create-vue 3.24: Vue 3.5, Vite 8, Vitest 4.1 (msw 2.15), vue-tsc 3, Playwright',
  project: join(here, 'project'),
  // As the guide installs it: no range, so npm picks the major Vitest 4.1's peer range allows.
  msw: 'msw',
  devDependencies: [],
  overlays: [],
  limitations: [],
  nodeBin: (log) => installNode24(log),
  scaffold: scaffoldVue,
  steps: vueSteps,
}

/**
 * The guide's first command, in the project folder, with `--yes`: without a terminal, npm
 * refuses to download create-vue it has not run before unless told yes. Then the template's
 * welcome spec goes.
 */
async function scaffoldVue({ sh, project, log }) {
  const [, version] = vueLeg.template.split('@')
  const flags = ['--ts', '--vitest', '--playwright']
  await sh('npm', 'create', '--yes', `vue@${version}`, '--', ...flags, 'my-app')
  for (const entry of readdirSync(join(project, 'my-app'))) {
    renameSync(join(project, 'my-app', entry), join(project, entry))
  }
  rmSync(join(project, 'my-app'), { recursive: true })
  rmSync(join(project, 'e2e', 'vue.spec.ts'))
  log(`scaffolded with ${vueLeg.template}`)
}

async function vueSteps({ step, sh, project, env, log }) {
  await step('v1. vue-tsc --build, and tsc on e2e/', async () => {
    log(`npm ls msw: ${(await sh('npm', 'ls', 'msw', '--depth=0')).match(/msw@\S+/)?.[0]}`)
    await sh('npx', 'vue-tsc', '--build')
    await sh('npx', 'tsc', '-p', 'e2e/tsconfig.json', '--noEmit')
  })
  await step('v2. vitest run (@vue/test-utils, cookie sign-in)', () => sh('npx', 'vitest', 'run'))
  const built = await step('v3. msw init, vite build: no byte of the sandbox', async () => {
    await sh('npx', 'msw', 'init', 'public', '--save')
    await sh('npx', 'vite', 'build')
    const assets = join(project, 'dist', 'assets')
    const texts = readdirSync(assets).map((file) => [
      file,
      readFileSync(join(assets, file), 'utf8'),
    ])
    const leaks = texts.flatMap(([file, text]) =>
      SANDBOX_MARKERS.filter((marker) => marker.test(text)).map((m) => `${file}: ${m}`),
    )
    if (leaks.length > 0) throw new StepError(`the production build holds ${leaks.join(', ')}`)
    const production = /^VITE_API_URL=(.+)$/m.exec(
      readFileSync(join(project, '.env.production'), 'utf8'),
    )?.[1]
    if (!production || !texts.some(([, text]) => text.includes(production))) {
      throw new StepError(`the production build does not call ${production}`)
    }
    log(`production build: ${texts.map(([file]) => file).join(', ')}, none of the sandbox`)
  })
  if (!built) return
  await step('v4. Playwright, 2 workers, on a sandbox build', async () => {
    const output = await run('npx', ['playwright', 'test', '--reporter=list'], {
      cwd: project,
      env: { ...env, APP_PORT: String(await freePort()), CI: '1' },
    })
    if (!/using 2 workers/.test(output) || !/3 passed/.test(output)) {
      throw new StepError(`expected 3 tests passed in 2 workers:\n${output}`)
    }
    log(output.match(/Running \d+ tests? using \d+ workers?/)?.[0] ?? 'no Playwright summary')
  })
}
