/**
 * @module
 * Bundles the server into `dist/cli/cli.cjs` with esbuild (`npm run build`; in a checkout,
 * `bin/platform-sandbox.mjs` too when the bundle is older than its sources). CommonJS, so that
 * the launcher compiles it through `vm.Script` with V8's code cache (Node 20 has none for ES
 * modules): compiling the bundle was the largest part of the start-up time (measured
 * 2026-11-28, spawn to first 200, median of 15 on the loaded 2-core machine: 1.56x bare
 * `node:http` with the cache, 2.54x without it, over the 2.5x goal).
 */
import { spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const outdir = join(root, 'dist', 'cli')
export const entry = join(outdir, 'cli.cjs')
const manifest = join(outdir, 'inputs.json')

/** Starts the fresh bundle once and stops it, so that its code cache is written. */
function warmCodeCache(runner) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, '--port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SANDBOX_BUNDLE_WARMUP: '1' },
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (data) => {
      output += data
      if (output.includes('listening on')) child.kill('SIGTERM')
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`Failed to warm the code cache: exit ${code}`)),
    )
  })
}

/** Builds the bundle, records its inputs for `isBundleFresh()` and warms its code cache. */
export async function buildBundle() {
  const esbuild = await import('esbuild')
  // Built aside and moved in place, so a server starting meanwhile never sees half a bundle.
  const staging = `${outdir}.${process.pid}`
  // A source saved while the build runs must count as newer than the bundle.
  const builtAt = Date.now()
  await rm(staging, { recursive: true, force: true })
  const settings = {
    bundle: true,
    minify: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Code that reads `import.meta.url` checks for CommonJS's `require` first.
    logOverride: { 'empty-import-meta': 'silent' },
    // Required from node_modules by the Redis store alone, loaded with a redis:// URL only.
    external: ['ioredis'],
  }
  // One file: the subcommands and the MCP module (with the MCP SDK) are in it too, each run on
  // first use (esbuild runs a module's code when its `import()` does). Measured 2026-11-28,
  // spawn to first 200 beside bare `node:http`, median of 15: 2.09x (CPU time 2.1x), against
  // 1.98x (2.1x) with them in two files of their own, which made 5.1 MB of bundle, not 2.8 MB.
  const result = await esbuild.build({
    ...settings,
    entryPoints: [join(root, 'cli', 'cli.ts')],
    outfile: join(staging, 'cli.cjs'),
  })
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules') && !input.includes(':'))
    .map((input) => relative(root, join(process.cwd(), input)))
  // The build's own settings count too.
  inputs.push('package-lock.json', 'scripts/bundle-cli.mjs')
  await writeFile(join(staging, 'inputs.json'), `${JSON.stringify({ builtAt, inputs }, null, 2)}\n`)
  await rm(outdir, { recursive: true, force: true })
  await rename(staging, outdir)
  await warmCodeCache(fileURLToPath(new URL('../bin/platform-sandbox.mjs', import.meta.url)))
  return entry
}

/** Whether the bundle exists and no source it was built from changed since. */
export function isBundleFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(manifest, 'utf8'))
    statSync(entry)
    return inputs.every((input) => statSync(join(root, input)).mtimeMs <= builtAt)
  } catch {
    return false
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildBundle()
  console.log(`Bundled the server into ${relative(process.cwd(), entry)}`)
}
