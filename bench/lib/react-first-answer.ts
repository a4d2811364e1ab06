/**
 * @module
 * The React recipe app (`consumer/react/project/src/`) in Chromium, built with Vite 8 and
 * served by `vite preview`: from navigation to the first API answer rendered (the app asks
 * `POST /auth/refresh` on load and renders "Sign in as host" when it answers 401), with the
 * sandbox's worker, against the same app whose `main.tsx` starts msw's `setupWorker` with one
 * hand-written handler for that request. The toolchain (Vite 8, React 19, TanStack Query,
 * msw 3, and hey-api in a folder of its own, run with the consumer test's Node 24) is
 * installed once into a cache folder outside the repository; each run installs the packed
 * package there and generates the client from its `openapi.app.json`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium } from '@playwright/test'
import { installNode24 } from '../../consumer/legs.mjs'
// @ts-expect-error: a plain JavaScript module of the consumer test
import { start, waitFor } from '../../consumer/steps.mjs'
import { chromiumArgs, findChromium } from '../../scripts/find-chromium.ts'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import { packTarball } from '../../scripts/pack-tarball.mjs'
import type { Figure } from './report.ts'
import { median } from './stats.ts'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const recipe = join(root, 'consumer', 'react', 'project')
const NPM = ['--prefer-offline', '--no-audit', '--no-fund']
const TOOLS = [
  'vite@^8',
  '@vitejs/plugin-react@^6',
  'react@^19',
  'react-dom@^19',
  '@tanstack/react-query@^5',
  'msw@^3',
]
/** The recipe's files the app is built from; `main.tsx` is the one the two apps differ in. */
const APP_FILES = ['App.tsx', 'AccountStatus.tsx', 'PendingBookings.tsx', 'api.ts', 'main.tsx']

/** The baseline's worker start: msw alone, one handler for the one request of the first screen. */
const MSW_ENABLE_MOCKING = `async function enableMocking(): Promise<void> {
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const { HttpResponse, http } = await import('msw')
  const { setupWorker } = await import('msw/browser')
  const signedOut = http.post('*/auth/refresh', () =>
    HttpResponse.json({ message: 'Missing refresh token', code: 'UNAUTHORIZED' }, { status: 401 }),
  )
  await setupWorker(signedOut).start({ quiet: true })
}
`

/** Marks the moment the first screen shows the answer, measured from navigation start. */
const OBSERVE_FIRST_ANSWER = `new MutationObserver((_, observer) => {
  const shown = [...document.querySelectorAll('button')].some((b) => b.textContent === 'Sign in as host')
  if (shown) { window.__firstAnswerMs = performance.now(); observer.disconnect() }
}).observe(document, { childList: true, subtree: true })`

function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'platform-sandbox-bench')
}

/** Installs the toolchain once, then the packed package; returns the workspace folder. */
async function prepareWorkspace(log: (line: string) => void): Promise<string> {
  const dir = join(cacheDir(), 'react')
  if (!existsSync(join(dir, 'node_modules', '@vitejs', 'plugin-react'))) {
    log(`Installing React, Vite 8 and msw 3 into ${dir} (once)...`)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n')
    await run('npm', ['install', ...NPM, ...TOOLS], { cwd: dir })
  }
  await run('npm', ['install', ...NPM, '--no-save', packTarball()], { cwd: dir })
  return dir
}

/**
 * The hey-api client of the app document the recipe writes (`npm run openapi`: the installed
 * package's document with its example operations), generated as the recipe generates it.
 */
async function generateClient(dir: string, output: string, log: (line: string) => void) {
  const codegen = join(dir, 'codegen')
  const node24 = await installNode24(log)
  const env = { ...process.env, PATH: `${node24}${delimiter}${process.env.PATH}` }
  if (!existsSync(join(codegen, 'node_modules', '@hey-api', 'openapi-ts'))) {
    await mkdir(codegen, { recursive: true })
    await writeFile(join(codegen, 'package.json'), '{ "private": true, "type": "module" }\n')
    await run('npm', ['install', ...NPM, '@hey-api/openapi-ts@0.99.0', 'typescript@~6.0.3'], {
      cwd: codegen,
      env,
    })
  }
  const document = join(dir, 'openapi.app.json')
  const installed = join(dir, 'node_modules', 'platform-sandbox')
  const operations = join(installed, 'examples', 'operations', 'index.mjs')
  const cli = join(installed, 'bin', 'platform-sandbox.mjs')
  await run('node', [cli, 'openapi', '--operations', operations, '--out', document], { env })
  const recipeConfig = await readFile(join(recipe, 'codegen', 'openapi-ts.config.ts'), 'utf8')
  const config = recipeConfig
    .replace("'../openapi.app.json'", `'${document}'`)
    .replace("'../src/client'", `'${output}'`)
  if (!config.includes(document) || !config.includes(output)) {
    throw new Error("Failed to point the recipe's hey-api config at the app document and output")
  }
  await writeFile(join(codegen, 'openapi-ts.config.ts'), config)
  await run('npx', ['--no-install', 'openapi-ts'], { cwd: codegen, env })
}

/** Writes and builds (`vite build --mode sandbox`) the app; returns its folder. */
async function buildApp(dir: string, name: 'sandbox' | 'msw', client: string): Promise<string> {
  const app = join(dir, 'apps', name)
  await rm(app, { recursive: true, force: true })
  await mkdir(join(app, 'src'), { recursive: true })
  for (const file of APP_FILES) await cp(join(recipe, 'src', file), join(app, 'src', file))
  await cp(client, join(app, 'src', 'client'), { recursive: true })
  if (name === 'msw') {
    const main = await readFile(join(app, 'src', 'main.tsx'), 'utf8')
    const replaced = main.replace(/async function enableMocking[\s\S]*?\n}\n/, MSW_ENABLE_MOCKING)
    if (replaced === main)
      throw new Error('Failed to write the msw app: no enableMocking in main.tsx')
    await writeFile(join(app, 'src', 'main.tsx'), replaced)
  }
  await cp(join(recipe, 'index.html'), join(app, 'index.html'))
  await cp(join(recipe, '.env.sandbox'), join(app, '.env.sandbox'))
  await writeFile(
    join(app, 'vite.config.mjs'),
    "import react from '@vitejs/plugin-react'\n\nexport default { plugins: [react()] }\n",
  )
  await mkdir(join(app, 'public'), { recursive: true })
  await cp(
    join(dir, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
    join(app, 'public', 'mockServiceWorker.js'),
  )
  await run(process.execPath, [viteBin(dir), 'build', '--mode', 'sandbox', '--logLevel', 'error'], {
    cwd: app,
  })
  return app
}

const viteBin = (dir: string) => join(dir, 'node_modules', 'vite', 'bin', 'vite.js')

/** Median time from navigation to the first answer rendered, alternating between the apps. */
export async function measureReactFirstAnswer(
  log: (line: string) => void,
  rounds = 9,
): Promise<Figure[]> {
  log(`React recipe app: navigation to the first API answer rendered (${rounds} rounds)...`)
  const dir = await prepareWorkspace(log)
  const client = join(dir, 'generated-client')
  await rm(client, { recursive: true, force: true })
  await generateClient(dir, client, log)
  const apps = {
    sandbox: await buildApp(dir, 'sandbox', client),
    msw: await buildApp(dir, 'msw', client),
  }
  const servers = (['sandbox', 'msw'] as const).map((name) => {
    const port = freePortSync()
    const args = ['preview', '--port', String(port), '--strictPort']
    const server = start(process.execPath, [viteBin(dir), ...args], {
      cwd: apps[name],
      env: process.env,
    })
    return { name, server, url: `http://localhost:${port}/` }
  })
  const executablePath = findChromium()
  if (!executablePath) throw new Error('Failed to measure the React app: no Chromium found')
  const browser = await chromium.launch({ executablePath, args: chromiumArgs })
  const samples = { sandbox: [] as number[], msw: [] as number[] }
  try {
    for (const { server, url } of servers) await waitFor(url, { server })
    for (let round = -1; round < rounds; round++) {
      for (const { name, url } of servers) {
        const context = await browser.newContext()
        const page = await context.newPage()
        await page.addInitScript(OBSERVE_FIRST_ANSWER)
        await page.goto(url)
        const ms = await (
          await page.waitForFunction(() => (window as { __firstAnswerMs?: number }).__firstAnswerMs)
        ).jsonValue()
        await context.close()
        if (round >= 0) samples[name].push(Number(ms))
      }
    }
  } finally {
    await browser.close()
    for (const { server } of servers) {
      server.stop()
      await server.exited
    }
  }
  return [
    {
      group: 'in a user project',
      name: 'React recipe app on vite preview, Chromium: navigation to the first API answer rendered, median',
      value: median(samples.sandbox),
      unit: 'ms',
      baselineName: 'msw setupWorker + 1 handler',
      baseline: median(samples.msw),
      goal: { kind: 'max', ratio: 1.5 },
      note: `${rounds} runs each, alternating, a new browser context each`,
    },
  ]
}
