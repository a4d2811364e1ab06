#!/usr/bin/env node
/**
 * The consumer test: installs the packed package into a throwaway project, as a user would,
 * and runs every recipe there (type check, Vitest, a Node script, the browser build,
 * Playwright, Storybook, the command and the typed client), once per toolchain of `legs.mjs`.
 *
 * Usage: `npm run test:consumer` (after `npm run build`); `node consumer/run.mjs --leg node24-msw3`
 * runs one leg; `CONSUMER_KEEP=1` keeps the project folders.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { packTarball } from '../scripts/pack-tarball.mjs'
import { legs } from './legs.mjs'
import {
  cleanEnv,
  clearViteLocks,
  freePort,
  run,
  StepError,
  seconds,
  start,
  waitFor,
} from './steps.mjs'

const here = dirname(new URL(import.meta.url).pathname)
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund']
const wanted = process.argv.includes('--leg')
  ? process.argv[process.argv.indexOf('--leg') + 1]
  : null
const selected = legs.filter((leg) => wanted === null || leg.name === wanted)
if (selected.length === 0) {
  console.error(`consumer: no leg named "${wanted}"; legs: ${legs.map((l) => l.name).join(', ')}`)
  process.exit(2)
}

const tarball = packTarball()
console.log(`consumer: packed ${tarball}`)
const results = []
for (const leg of selected) results.push(await runLeg(leg))

console.log('\nconsumer: summary')
for (const result of results) {
  console.log(`  ${result.ok ? 'ok    ' : 'FAILED'} ${result.leg.name} in ${seconds(result.ms)}`)
  for (const failure of result.failures) console.log(`         failed step: ${failure}`)
}
const failed = results.filter((result) => !result.ok).length
console.log(`consumer: ${results.length - failed} passed, ${failed} failed`)
process.exitCode = failed > 0 ? 1 : 0

async function runLeg(leg) {
  const started = Date.now()
  const failures = []
  const log = (line) => console.log(`[${leg.name}] ${line}`)
  log(`${leg.title}`)
  for (const limitation of leg.limitations) log(`limitation: ${limitation}`)
  const project = mkdtempSync(join(tmpdir(), `platform-sandbox-consumer-${leg.name}-`))
  let env
  const step = async (name, body) => {
    const stepStarted = Date.now()
    log(`${name}…`)
    try {
      await body()
      log(`${name}: ok (${seconds(Date.now() - stepStarted)})`)
      return true
    } catch (error) {
      const message = error instanceof StepError ? error.message : (error?.stack ?? String(error))
      console.error(`[${leg.name}] FAILED step "${name}":\n${message}\n`)
      failures.push(name)
      return false
    }
  }
  const sh = (command, ...args) => run(command, args, { cwd: project, env })

  const installed = await step('install the package and its peers', async () => {
    const bin = await leg.nodeBin(log)
    env = cleanEnv({ PATH: `${bin}${delimiter}${process.env.PATH}` })
    // A leg made from a scaffolding tool (create-vue) runs it first; its files go over the result.
    if (leg.scaffold) await leg.scaffold({ sh, project, log })
    cpSync(leg.project ?? join(here, 'project'), project, { recursive: true })
    for (const overlay of leg.overlays) cpSync(overlay, project, { recursive: true })
    log(`project ${project}, ${(await sh('node', '--version')).trim()}`)
    log(`npm install ${NPM_FLAGS.join(' ')} <tarball> ${leg.msw}`)
    await sh('npm', 'install', ...NPM_FLAGS, tarball, leg.msw, ...(leg.dependencies ?? []))
    if (leg.devDependencies.length > 0) {
      log(`npm install ${NPM_FLAGS.join(' ')} -D ${leg.devDependencies.join(' ')}`)
      await sh('npm', 'install', ...NPM_FLAGS, '-D', ...leg.devDependencies)
    }
    log(`installed: ${installedVersions(project)}`)
  })
  // A leg with steps of its own (the React app) runs them instead of the vanilla project's.
  if (installed && leg.steps) await leg.steps({ step, sh, project, env, log })
  else if (installed) {
    await step('a. tsc -b (create-vite tsconfig, every entry)', async () => {
      const binaries = readdirSync(join(project, 'node_modules', '.bin'))
      log(`TypeScript binaries: ${binaries.filter((name) => /^ts(c|go)$/.test(name)).join(', ')}`)
      for (const command of leg.typecheck) {
        log(`npx ${command.join(' ')}`)
        await sh('npx', ...command)
      }
    })
    await step('b. vitest run src (platform-sandbox/node)', () => sh('npx', 'vitest', 'run', 'src'))
    await step('c. node scripts/sandbox-server.mjs (platform-sandbox/server)', () =>
      sh('node', 'scripts/sandbox-server.mjs'),
    )
    const built = await step(
      'd. msw init, vite build (production, then --mode sandbox)',
      async () => {
        await sh('npx', 'msw', 'init', 'public', '--save')
        await sh('npx', 'vite', 'build')
        const leaked = readdirSync(join(project, 'dist', 'assets')).filter((file) =>
          readFileSync(join(project, 'dist', 'assets', file), 'utf8').includes('mockServiceWorker'),
        )
        if (leaked.length > 0) {
          throw new StepError(`the production build holds the sandbox worker: ${leaked.join(', ')}`)
        }
        await sh('npx', 'vite', 'build', '--mode', 'sandbox')
      },
    )
    const storybook = await step('f1. storybook build', () => sh('npx', 'storybook', 'build'))
    const playwright = async (projects) => {
      const ports = { APP_PORT: await freePort(), STORYBOOK_PORT: await freePort() }
      const projectArgs = projects.flatMap((name) => ['--project', name])
      clearViteLocks(project)
      await run('npx', ['playwright', 'test', ...projectArgs, '--reporter=list'], {
        cwd: project,
        env: { ...env, ...ports },
      })
    }
    if (built) {
      await step(`e. Playwright on vite preview: ${leg.playwrightProjects.join(', ')}`, () =>
        playwright(leg.playwrightProjects),
      )
    }
    if (storybook) {
      await step('f2. Playwright on the Storybook build', () => playwright(['storybook']))
    }
    await step('g. npx platform-sandbox, then the typed client', () => checkCli(project, env, log))
  }

  if (process.env.CONSUMER_KEEP) log(`kept ${project}`)
  else rmSync(project, { recursive: true, force: true })
  const ms = Date.now() - started
  log(`${failures.length === 0 ? 'passed' : `${failures.length} step(s) failed`} in ${seconds(ms)}`)
  return { leg, ok: failures.length === 0, failures, ms }
}

async function checkCli(project, env, log) {
  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  const server = start('npx', ['platform-sandbox', '--port', String(port), '--quiet'], {
    cwd: project,
    env,
  })
  try {
    const health = await (await waitFor(`${baseUrl}/__sandbox/health`, { server })).json()
    if (health.status !== 'ok') throw new StepError(`health answered ${JSON.stringify(health)}`)
    const document = await (await waitFor(`${baseUrl}/__sandbox/openapi.json`, { server })).json()
    if (!document.openapi?.startsWith('3.') || !document.paths?.['/bookings/{bookingId}/decline']) {
      throw new StepError(
        `openapi.json is not the merged contract: ${JSON.stringify(document).slice(0, 200)}`,
      )
    }
    log(`${baseUrl}: health ok, openapi.json ${Object.keys(document.paths).length} paths`)
    log((await run('node', ['scripts/typed-client.mjs', baseUrl], { cwd: project, env })).trim())
  } finally {
    server.stop()
    await server.exited
  }
}

function installedVersions(project) {
  const names = ['msw', 'typescript', 'vite', 'vitest', '@playwright/test']
  return [...names, 'storybook', 'msw-storybook-addon', 'next', 'react', 'vue', 'vue-tsc']
    .map((name) => {
      const file = join(project, 'node_modules', name, 'package.json')
      return existsSync(file) ? `${name}@${JSON.parse(readFileSync(file, 'utf8')).version}` : null
    })
    .filter(Boolean)
    .join(', ')
}
