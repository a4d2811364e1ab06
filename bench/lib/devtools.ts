/**
 * @module
 * What the in-page devtools cost a user's app:
 * - a request answered by the browser worker, in Chromium, on the example app (Vite build of
 *   `e2e/app`) opened with the panel mounted and folded (`?devtools`) and without it:
 *   alternating rounds, the median of their means;
 * - the JavaScript a Vite app loads at start (its entry and the chunks it imports statically,
 *   from Vite's manifest) and every file its build emits, with and without the devtools
 *   loader, and the panel's own chunk, which only the loader fetches.
 */
import { execFile } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium, type Page } from '@playwright/test'
import { personas } from '../../fixtures/personas.ts'
import { chromiumArgs, findChromium } from '../../scripts/find-chromium.ts'
import { installPackage } from './package-costs.ts'
import type { Figure } from './report.ts'
import { median } from './stats.ts'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const work = join(root, 'bench', '.work')

/** Requests per round, rounds per page, warm-up requests per page. */
const REQUESTS = 200
const ROUNDS = 10
const WARM_UP = 50

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

/** A static server of `dir` on 127.0.0.1, any free port; unknown paths get `index.html`. */
async function serveStatic(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    const file = join(dir, path === '/' ? 'index.html' : path)
    try {
      const body = await readFile(file.startsWith(dir) ? file : join(dir, 'index.html'))
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      res.end(body)
    } catch {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(await readFile(join(dir, 'index.html')))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

/** Mean ms of `count` sequential worker-answered requests in the page (a string: no helpers). */
function timeRequests(page: Page, count: number): Promise<number> {
  const body = JSON.stringify({
    refreshToken: personas.find((p) => p.key === 'host')!.refreshToken,
  })
  return page.evaluate(`(async () => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(body)} }
    const started = performance.now()
    for (let i = 0; i < ${count}; i++) {
      const response = await fetch('/auth/refresh?dryRun=true', init)
      if (response.status !== 200) throw new Error('answered ' + response.status)
      await response.text()
    }
    return (performance.now() - started) / ${count}
  })()`) as Promise<number>
}

export interface WorkerRequestFigures {
  withDevtools: number
  without: number
  rounds: { withDevtools: number[]; without: number[] }
}

/** A request answered by the worker, with the devtools folded and without; builds `e2e/app`. */
export async function measureWorkerRequests(
  log: (line: string) => void,
): Promise<WorkerRequestFigures> {
  log(
    'Devtools: building the example app (vite build), then requests through the worker in Chromium...',
  )
  await run(
    'npx',
    ['--no-install', 'vite', 'build', '--config', 'e2e/vite.config.ts', '--logLevel', 'error'],
    {
      cwd: root,
    },
  )
  const { url, server } = await serveStatic(join(root, 'e2e', 'dist', 'app'))
  const executablePath = findChromium()
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: chromiumArgs,
  })
  try {
    const open = async (query: string) => {
      const page = await (await browser.newContext()).newPage()
      await page.goto(`${url}/${query}`)
      await page.waitForSelector('body[data-ready="true"]')
      return page
    }
    const without = await open('')
    const withDevtools = await open('?devtools')
    await withDevtools.waitForSelector('platform-sandbox-devtools', { state: 'attached' })
    await timeRequests(without, WARM_UP)
    await timeRequests(withDevtools, WARM_UP)
    const rounds = { withDevtools: [] as number[], without: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which page goes first, so drift on a shared machine falls on both.
      const order =
        round % 2 === 0
          ? (['without', 'withDevtools'] as const)
          : (['withDevtools', 'without'] as const)
      for (const name of order) {
        rounds[name].push(await timeRequests(name === 'without' ? without : withDevtools, REQUESTS))
      }
    }
    return { withDevtools: median(rounds.withDevtools), without: median(rounds.without), rounds }
  } finally {
    await browser.close()
    server.close()
  }
}

const APPS = {
  plain: `import { startSandboxWorker } from 'platform-sandbox/browser'

await startSandboxWorker({ quiet: true })
document.body.dataset.ready = 'true'
`,
  devtools: `import { startSandboxWorker } from 'platform-sandbox/browser'

await startSandboxWorker({ quiet: true, devtools: () => import('platform-sandbox/devtools') })
document.body.dataset.ready = 'true'
`,
}

interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}

export interface StartupBundleFigures {
  /** Gzipped bytes loaded at start, per app. */
  startup: Record<keyof typeof APPS, number>
  /** Gzipped bytes of every JavaScript file the build emits, per app. */
  emitted: Record<keyof typeof APPS, number>
  /** Gzipped bytes of the chunk holding the panels. */
  devtoolsChunk: number
  /** Whether any file the plain app's build emits holds the panels. */
  plainHoldsDevtools: boolean
}

/** Builds both apps with Vite (needs `npm run build`) and reads what each loads at start. */
export async function measureStartupBundles(
  log: (line: string) => void,
): Promise<StartupBundleFigures> {
  log('Devtools: Vite builds of an app with and without the devtools loader...')
  const startup = { plain: 0, devtools: 0 }
  const emitted = { plain: 0, devtools: 0 }
  let devtoolsChunk = 0
  let plainHoldsDevtools = false
  for (const name of Object.keys(APPS) as (keyof typeof APPS)[]) {
    const dir = join(work, `devtools-${name}`)
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
    await installPackage(dir)
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>\n',
    )
    await writeFile(join(dir, 'main.ts'), APPS[name])
    const out = join(dir, 'dist')
    await run(
      'npx',
      ['--no-install', 'vite', 'build', dir, '--outDir', out, '--manifest', '--logLevel', 'error'],
      { cwd: root },
    )
    const manifest = JSON.parse(
      await readFile(join(out, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, ManifestChunk>
    const loaded = new Set<string>()
    const visit = (key: string) => {
      if (loaded.has(key)) return
      loaded.add(key)
      for (const next of manifest[key]?.imports ?? []) visit(next)
    }
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
    const loadedFiles = new Set([...loaded].map((key) => manifest[key]!.file))
    // Every file the build emits, read once: all count as emitted, those loaded at start as
    // startup too.
    for (const file of new Set(Object.values(manifest).map((chunk) => chunk.file))) {
      if (!file.endsWith('.js')) continue
      const text = await readFile(join(out, file))
      const size = gzipSync(text).length
      emitted[name] += size
      if (loadedFiles.has(file)) startup[name] += size
      const holdsPanels = text.includes('platform-sandbox-devtools')
      if (name === 'plain' && holdsPanels) plainHoldsDevtools = true
      if (name === 'devtools' && holdsPanels && !loadedFiles.has(file)) devtoolsChunk += size
    }
  }
  return { startup, emitted, devtoolsChunk, plainHoldsDevtools }
}

/** The figures of both measures. */
export function devtoolsFigures(
  requests: WorkerRequestFigures,
  bundles: StartupBundleFigures,
): Figure[] {
  return [
    {
      group: 'devtools in the page',
      name: `a request answered by the browser worker (POST /auth/refresh?dryRun=true; mean of ${REQUESTS}, median of ${ROUNDS} alternating rounds), devtools mounted and folded`,
      value: requests.withDevtools,
      unit: 'ms',
      baselineName: 'the same page without devtools',
      baseline: requests.without,
      goal: { kind: 'max', ratio: 1.05 },
    },
    {
      group: 'devtools in the page',
      name: 'JavaScript a Vite 7 app loads at start (entry and static imports, gzipped), without the devtools loader',
      value: bundles.startup.plain / 1024,
      unit: 'kB',
      baselineName: 'the same app with the loader',
      baseline: bundles.startup.devtools / 1024,
      goal: { kind: 'max', ratio: 1 },
    },
    {
      group: 'devtools in the page',
      name: 'JavaScript the same build emits (every file, gzipped), without the devtools loader',
      value: bundles.emitted.plain / 1024,
      unit: 'kB',
      baselineName: 'the app with the loader, less the panels chunk',
      baseline: (bundles.emitted.devtools - bundles.devtoolsChunk) / 1024,
      goal: { kind: 'max', ratio: 1 },
      note: bundles.plainHoldsDevtools
        ? 'a file of the build holds the panels'
        : 'no file of the build holds the panels',
    },
    {
      group: 'devtools in the page',
      name: 'the panels chunk, fetched only when the loader is called (gzipped)',
      value: bundles.devtoolsChunk / 1024,
      unit: 'kB',
      baselineName: 'JavaScript loaded at start',
      baseline: bundles.startup.plain / 1024,
    },
  ]
}
