/**
 * @module
 * What the package costs a user's project, each beside the same thing done with msw alone:
 * - the import phase of a Vitest file that imports `platform-sandbox/node`, against a file
 *   that sets up `msw/node` with one hand-written handler (Vitest's own "import" figure);
 * - the JavaScript a Vite production build of an app that starts the browser entry adds,
 *   gzipped, against an app that starts msw's `setupWorker` with one handler.
 * The throwaway projects live in `bench/.work/` (git-ignored), with the packed package
 * unpacked into their `node_modules/platform-sandbox` as an install would put it (so Vitest
 * treats it as a dependency, not as source to transform); its dependencies resolve from
 * this repository's `node_modules`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { gzipSync } from 'node:zlib'
import { packTarball } from '../../scripts/pack-tarball.mjs'
import type { Figure } from './report.ts'
import { median } from './stats.ts'

/** Vitest runs of each file: the import phase of one run swings by a third on a busy machine. */
const IMPORT_ROUNDS = 7

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const work = join(root, 'bench', '.work')

const VITEST_FILES = {
  sandbox: `import { setupSandboxServer } from 'platform-sandbox/node'
import { expect, it } from 'vitest'

const { server } = setupSandboxServer()
it('sets up', () => expect(server.listHandlers().length).toBeGreaterThan(0))
`,
  msw: `import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { expect, it } from 'vitest'

const server = setupServer(http.get('*/payprov/account-status', () => HttpResponse.json({})))
it('sets up', () => expect(server.listHandlers().length).toBeGreaterThan(0))
`,
}

export const APP_FILES = {
  sandbox: `import { startSandboxWorker } from 'platform-sandbox/browser'

await startSandboxWorker({ quiet: true })
document.body.dataset.ready = 'true'
`,
  msw: `import { HttpResponse, http } from 'msw'
import { setupWorker } from 'msw/browser'

await setupWorker(http.get('*/payprov/account-status', () => HttpResponse.json({}))).start()
document.body.dataset.ready = 'true'
`,
}

/** Vitest's "import" duration in ms, from its summary line. */
function importPhaseMs(output: string): number {
  const match = /import ([\d.]+)(ms|s)/.exec(stripVTControlCharacters(output))
  if (!match) throw new Error(`Failed to read Vitest's import duration from:\n${output}`)
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
}

/** Unpacks the packed package into `dir/node_modules/platform-sandbox`. */
export async function installPackage(dir: string): Promise<void> {
  // A project of its own: without it, Node would resolve `platform-sandbox` to this
  // repository itself (a package can import its own name), outside `node_modules`.
  await writeFile(
    join(dir, 'package.json'),
    '{ "name": "bench-project", "private": true, "type": "module" }\n',
  )
  const target = join(dir, 'node_modules', 'platform-sandbox')
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  await run('tar', ['-xzf', packTarball(), '-C', target, '--strip-components=1'])
}

async function measureVitestImports(rounds: number): Promise<Record<'sandbox' | 'msw', number>> {
  const dir = join(work, 'vitest-import')
  await mkdir(dir, { recursive: true })
  await installPackage(dir)
  for (const [name, text] of Object.entries(VITEST_FILES)) {
    await writeFile(join(dir, `${name}.test.ts`), text)
  }
  const samples: Record<'sandbox' | 'msw', number[]> = { sandbox: [], msw: [] }
  for (let round = 0; round < rounds; round += 1) {
    for (const name of ['msw', 'sandbox'] as const) {
      const { stdout } = await run(
        'npx',
        ['--no-install', 'vitest', 'run', '--root', dir, `${name}.test.ts`],
        { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } },
      )
      samples[name].push(importPhaseMs(stdout))
    }
  }
  return { sandbox: median(samples.sandbox), msw: median(samples.msw) }
}

export async function gzippedJs(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { recursive: true })) {
    if (entry.endsWith('.js')) total += gzipSync(await readFile(join(dir, entry))).length
  }
  return total
}

/**
 * Vite 8, what `npm create vite` installs today (this repository's own is Vite 7): installed
 * once into a cache folder outside the repository, and run with this machine's Node.
 */
export async function vite8(log: (line: string) => void): Promise<string> {
  const dir = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'platform-sandbox-bench',
    'vite8',
  )
  const bin = join(dir, 'node_modules', 'vite', 'bin', 'vite.js')
  if (!existsSync(bin)) {
    log(`Installing Vite 8 into ${dir} (once)...`)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'package.json'), '{ "private": true }\n')
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', 'vite@^8'], {
      cwd: dir,
    })
  }
  return bin
}

/** Gzipped JavaScript of the two apps, built with `vite` (a command and its first arguments). */
export async function measureBundles(
  vite: readonly string[],
  label: string,
): Promise<Record<'sandbox' | 'msw', number>> {
  const sizes = { sandbox: 0, msw: 0 }
  for (const name of ['msw', 'sandbox'] as const) {
    const dir = join(work, `${label}-${name}`)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    if (name === 'sandbox') await installPackage(dir)
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>\n',
    )
    await writeFile(join(dir, 'main.ts'), APP_FILES[name])
    const [command, ...first] = vite
    await run(
      command!,
      [...first, 'build', dir, '--outDir', join(dir, 'dist'), '--logLevel', 'error'],
      { cwd: root },
    )
    sizes[name] = await gzippedJs(join(dir, 'dist', 'assets'))
  }
  return sizes
}

/** The two figures; needs `npm run build` to have run (the bench runs it). */
export async function measurePackageCosts(log: (line: string) => void): Promise<Figure[]> {
  log(`Package costs: Vitest import phase (${IMPORT_ROUNDS} rounds), Vite production bundles...`)
  const imports = await measureVitestImports(IMPORT_ROUNDS)
  const bundles = await measureBundles(['npx', '--no-install', 'vite'], 'vite')
  return [
    {
      group: 'in a user project',
      name: 'Vitest import phase of a file using platform-sandbox/node, median',
      value: imports.sandbox,
      unit: 'ms',
      baselineName: 'msw/node + 1 handler',
      baseline: imports.msw,
      goal: { kind: 'max', ratio: 1.5 },
      note: `${IMPORT_ROUNDS} runs each, alternating`,
    },
    bundleFigure(
      'JavaScript of a Vite 7 production build starting the browser entry, gzipped',
      bundles,
    ),
    await measureVite8Bundles(log),
  ]
}

/** The bundle figure with Vite 8, what `npm create vite` installs today. */
export async function measureVite8Bundles(log: (line: string) => void): Promise<Figure> {
  const bundles8 = await measureBundles([process.execPath, await vite8(log)], 'vite8')
  return bundleFigure('the same with Vite 8 (what npm create vite installs today)', bundles8)
}

/** The bundle figure of one Vite version: the sandbox app's kB against the msw app's. */
function bundleFigure(name: string, sizes: Record<'sandbox' | 'msw', number>): Figure {
  return {
    group: 'in a user project',
    name,
    value: sizes.sandbox / 1024,
    unit: 'kB',
    baselineName: 'msw setupWorker + 1 handler',
    baseline: sizes.msw / 1024,
    goal: { kind: 'max', ratio: 1.5 },
  }
}
