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
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const outdir = join(root, 'dist', 'cli')
export const entry = join(outdir, 'cli.cjs')
const manifest = join(outdir, 'inputs.json')

/**
 * The MCP module (with the MCP SDK) and the subcommands are two bundle files beside the
 * server's, required on first use, so that the server's start neither reads nor compiles them:
 * `mcp.cjs` (`/__sandbox/mcp`, `platform-sandbox mcp`) and `commands.cjs` (the actions of
 * `commands/program.ts`). One file for every subcommand: a CommonJS bundle shares no chunk, and
 * one per subcommand doubled the package's size (6.6 MB against 4.1 MB; the container image has a
 * 25 MB budget). The bundle runs in a `vm.Script`, which has no dynamic `import()`: a stub
 * requires the file.
 */
const PROGRAM = join(root, 'server', 'commands', 'program.ts')
const MCP = join(root, 'server', 'mcp', sep)

/** Collects into `files` the modules of each file apart: `{ mcp: Set { '/…/http-endpoint.ts', … } }`. */
function splitModules(files) {
  return {
    name: 'split-modules',
    setup(build) {
      build.onResolve({ filter: /\.ts$/ }, (args) => {
        const path = join(args.resolveDir, args.path)
        const mcp = path.startsWith(MCP)
        if (args.kind !== 'dynamic-import' || !(mcp || args.importer === PROGRAM)) return undefined
        const name = mcp ? 'mcp' : 'commands'
        files[name] = (files[name] ?? new Set()).add(path)
        return { path: name, namespace: 'split' }
      })
      build.onLoad({ filter: /.*/, namespace: 'split' }, (args) => ({
        resolveDir: root,
        loader: 'js',
        contents: `module.exports = require('./${args.path}.cjs')`,
      }))
      build.onResolve({ filter: /^\.\/\w+\.cjs$/ }, (args) => ({ path: args.path, external: true }))
    },
  }
}

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
  const files = {}
  const result = await esbuild.build({
    ...settings,
    entryPoints: [join(root, 'server', 'cli.ts')],
    outfile: join(staging, 'cli.cjs'),
    plugins: [splitModules(files)],
  })
  // Each with all it imports: what two of them share is repeated in both.
  const apart = await Promise.all(
    Object.entries(files).map(([name, modules]) =>
      esbuild.build({
        ...settings,
        stdin: {
          contents: [...modules].map((path) => `export * from ${JSON.stringify(path)}`).join('\n'),
          resolveDir: root,
          loader: 'ts',
        },
        outfile: join(staging, `${name}.cjs`),
      }),
    ),
  )
  const inputs = [result, ...apart]
    .flatMap(({ metafile }) => Object.keys(metafile.inputs))
    .filter((input) => !input.includes('node_modules') && !input.includes(':'))
    .filter((input, index, all) => all.indexOf(input) === index && input !== '<stdin>')
    .map((input) => relative(root, join(process.cwd(), input)))
  // The build's own settings count too.
  inputs.push('package-lock.json', 'server/bundle.mjs')
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
