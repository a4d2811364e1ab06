/**
 * @module
 * What the browser bundle of `npm run bench` is made of: `npx tsx bench/bundle-breakdown.ts`
 * (after `npm run build`). Prints both apps' gzipped JavaScript, then the sandbox app's per
 * package and per source file of the sandbox. For that, the browser entry is built again
 * with source maps (into `bench/.work/dist-map/`) and bundled by Vite with source maps, the
 * two chained; each output byte goes to the source its mapping names. A source's share is
 * its bytes gzipped alone, scaled so that the shares add up to the bundle's gzipped size.
 * `--files <n>`: how many files to list (default 30).
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'tsdown'
import { APP_FILES, gzippedJs, measureBundles, vite8 } from './lib/package-costs.ts'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))
const work = join(root, 'bench', '.work')
const kB = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7)

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Each mapped segment of a source map: output line and column, and its source index. */
function* segments(mappings: string): Generator<[line: number, column: number, source: number]> {
  let source = 0
  for (const [line, text] of mappings.split(';').entries()) {
    let column = 0
    for (const segment of text.split(',')) {
      if (segment === '') continue
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const char of segment) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      column += fields[0] ?? 0
      if (fields.length >= 4) {
        source += fields[1] ?? 0
        yield [line, column, source]
      }
    }
  }
}

/** The output text of each source in the `.js` files of `dir`. */
async function textBySource(dir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.js')) continue
    const text = await readFile(join(dir, file), 'utf8')
    // A chunk that only re-exports another has no map of its own: count it as itself.
    if (!existsSync(join(dir, `${file}.map`))) {
      texts.set(`(unmapped) ${file}`, text)
      continue
    }
    const lines = text.split('\n')
    const map = JSON.parse(await readFile(join(dir, `${file}.map`), 'utf8'))
    const mapped = [...segments(map.mappings)]
    for (const [index, [line, column, source]] of mapped.entries()) {
      const next = mapped[index + 1]
      const end = next && next[0] === line ? next[1] : undefined
      const name = String(map.sources[source]).replace(/^(\.\.\/)+/, '')
      texts.set(name, (texts.get(name) ?? '') + (lines[line] ?? '').slice(column, end))
    }
  }
  return texts
}

async function buildMappedApp(vite: readonly string[]): Promise<string> {
  const dist = join(work, 'dist-map')
  // @ts-expect-error: the library build's config, a plain JavaScript module
  const config = (await import('../tsdown.config.mjs')).default[0]
  await build({
    ...config,
    config: false,
    cwd: root,
    entry: { browser: join(root, 'mocks/runtimes/browser/index.ts') },
    outDir: dist,
    tsconfig: join(root, 'tsconfig.build.json'),
    sourcemap: true,
    dts: false,
    copy: undefined,
    clean: true,
    logLevel: 'error',
  })
  const dir = join(work, 'vite-mapped')
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><body><script type="module" src="./main.ts"></script></body></html>\n',
  )
  await writeFile(
    join(dir, 'main.ts'),
    APP_FILES.sandbox.replace('platform-sandbox/browser', join(dist, 'browser.js')),
  )
  // The library build's own maps, chained in by Vite as it loads each chunk.
  await writeFile(
    join(dir, 'vite.config.mjs'),
    `import { existsSync, readFileSync } from 'node:fs'
export default {
  build: { sourcemap: true },
  plugins: [{
    name: 'library-maps',
    load(id) {
      if (!id.startsWith(${JSON.stringify(dist)}) || !existsSync(id + '.map')) return null
      const code = readFileSync(id, 'utf8').replace(/\\n\\/\\/# sourceMappingURL=.*\\s*$/, '\\n')
      return { code, map: JSON.parse(readFileSync(id + '.map', 'utf8')) }
    },
  }],
}
`,
  )
  const [command, ...first] = vite
  await run(command!, [...first, 'build', dir, '--logLevel', 'error'], { cwd: dir })
  return join(dir, 'dist', 'assets')
}

function packageOf(source: string): string {
  const at = source.lastIndexOf('node_modules/')
  if (at === -1) return 'platform-sandbox (own code)'
  const [scope = '', name = ''] = source.slice(at + 'node_modules/'.length).split('/')
  return scope.startsWith('@') ? `${scope}/${name}` : scope
}

function printGroups(title: string, shares: Map<string, number>, limit: number): void {
  console.log(`\n${title}`)
  const rows = [...shares].sort((a, b) => b[1] - a[1]).slice(0, limit)
  for (const [name, bytes] of rows) console.log(`${kB(bytes)} kB  ${name}`)
}

if (!existsSync(join(root, 'dist', 'browser.js'))) throw new Error('Run `npm run build` first')
// Vite 8, the version the goal is measured with (what `npm create vite` installs today).
const vite = [process.execPath, await vite8(console.log)]
const sizes = await measureBundles(vite, 'vite8')
console.log(`msw setupWorker + 1 handler: ${kB(sizes.msw)} kB gzipped`)
console.log(`startSandboxWorker:          ${kB(sizes.sandbox)} kB gzipped`)
console.log(`ratio ${(sizes.sandbox / sizes.msw).toFixed(2)}x (goal <= 1.5x)`)

const assets = await buildMappedApp(vite)
const texts = await textBySource(assets)
const alone = new Map([...texts].map(([name, text]) => [name, gzipSync(text).length]))
const scale = (await gzippedJs(assets)) / [...alone.values()].reduce((sum, size) => sum + size, 0)
const byPackage = new Map<string, number>()
const byFile = new Map<string, number>()
for (const [name, size] of alone) {
  const pkg = packageOf(name)
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + size * scale)
  if (!name.includes('node_modules/')) byFile.set(name, size * scale)
}
const limit = Number(process.argv[process.argv.indexOf('--files') + 1]) || 30
printGroups('Per package (gzipped share):', byPackage, Number.POSITIVE_INFINITY)
printGroups('The sandbox, per source file (gzipped share):', byFile, limit)
