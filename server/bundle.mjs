/**
 * @module
 * Bundles the server into `dist/cli/cli.cjs` with esbuild, so that it starts in
 * a fraction of the time tsx needs to compile the TypeScript sources on every run.
 * `npm run build` runs it; in a checkout, `bin/platform-sandbox.mjs` also runs it when
 * the bundle is older than its sources.
 *
 * The bundle is CommonJS so that `run-bundle.mjs` can compile it through `vm.Script`
 * with V8's code cache (Node 20 has no code cache for ES modules): compiling the
 * bundle's JavaScript was the largest part of the start-up time.
 *
 * The `default` scenario's records at the default seed are computed here and put in
 * the bundle (`prebuilt-data.ts`), so that the usual start skips the faker generator.
 *
 * What is not needed to answer the first request is kept off the start-up path:
 * the merged contract is only parsed on the first `GET /__sandbox/openapi.json`,
 * and what Express loads eagerly but the sandbox
 * never uses is only required if someone calls it (`lazyRequires`).
 */
import { spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const outdir = join(root, 'dist', 'cli')
export const entry = join(outdir, 'cli.cjs')
const manifest = join(outdir, 'inputs.json')

/**
 * Packages Express requires when it loads but the sandbox never calls: body-parser
 * (with iconv-lite), etag and cookie-signature (both with node:crypto, whose loading
 * alone took a tenth of the start-up). Each is replaced by a stub that requires the
 * real package on first use, from node_modules.
 */
const lazyPackages = {
  'body-parser': ['json', 'raw', 'text', 'urlencoded'],
  'cookie-signature': ['sign', 'unsign'],
  etag: null,
}

function lazyStub(name, members) {
  const load = `let real\nconst load = () => (real ??= require(${JSON.stringify(name)}))\n`
  if (members === null) return `${load}module.exports = (...args) => load()(...args)`
  const entries = members.map((member) => `${member}: (...args) => load().${member}(...args)`)
  return `${load}module.exports = { ${entries.join(', ')} }`
}

const lazyRequires = {
  name: 'lazy-requires',
  setup(build) {
    const names = Object.keys(lazyPackages).join('|')
    build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) =>
      args.namespace === 'lazy' ? undefined : { path: args.path, namespace: 'lazy' },
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      resolveDir: root,
      loader: 'js',
      contents: lazyStub(args.path, lazyPackages[args.path]),
    }))
  },
}

/**
 * faker (its Faker class and locale modules are large) is evaluated on first use rather than
 * at start: the usual start serves the prebuilt `default` data and never generates any.
 * The real module stays in the bundle, behind a getter that requires it.
 */
const lazyFaker = {
  name: 'lazy-faker',
  setup(build) {
    build.onResolve({ filter: /^@faker-js\/faker\/locale\/base$/ }, (args) =>
      args.namespace === 'lazy-faker' ? undefined : { path: args.path, namespace: 'lazy-faker' },
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy-faker' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: `let real
const load = () => (real ??= require('@faker-js/faker/locale/base'))
module.exports = { get faker() { return load().faker } }`,
    }))
  },
}

/**
 * The MCP module (`server/mcp/`, with the MCP SDK) is a bundle of its own, `mcp.cjs` beside
 * the server's: loaded on the first call to `/__sandbox/mcp` or by `platform-sandbox mcp`,
 * so the server's start neither reads nor compiles it, and the SDK is not installed with
 * the package.
 */
const MCP_ENTRY = `export { createMcpEndpoint } from './mcp/http-endpoint.ts'
export { runMcpCommand } from './mcp/stdio-command.ts'`

const mcpModule = {
  name: 'mcp-module',
  setup(build) {
    // A stub in the server's bundle that requires the other file on first use (the bundle
    // runs in a `vm.Script`, which has no dynamic `import()`).
    build.onResolve({ filter: /^\.\/mcp\/(http-endpoint|stdio-command)\.ts$/ }, () => ({
      path: 'mcp',
      namespace: 'mcp-module',
    }))
    build.onLoad({ filter: /.*/, namespace: 'mcp-module' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: "module.exports = require('./mcp.cjs')",
    }))
    build.onResolve({ filter: /^\.\/mcp\.cjs$/ }, () => ({ path: './mcp.cjs', external: true }))
  },
}

const PREBUILT = [{ scenario: 'default' }]

/** Computes the prebuilt scenario data with the fixtures themselves, bundled for the occasion. */
async function computePrebuiltData(esbuild, staging) {
  const script = join(staging, 'fixtures.mjs')
  await esbuild.build({
    stdin: {
      contents: "export { scenarios, DEFAULT_SEED } from '../fixtures/scenarios.ts'",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  })
  const { scenarios, DEFAULT_SEED } = await import(pathToFileURL(script).href)
  await rm(script)
  return Object.fromEntries(
    PREBUILT.map(({ scenario }) => [
      `${scenario}@${DEFAULT_SEED}`,
      JSON.stringify(scenarios[scenario].build(DEFAULT_SEED)),
    ]),
  )
}

/** Replaces `server/prebuilt-data.ts` with the data computed at bundle time. */
function prebuiltDataModule(texts) {
  return {
    name: 'prebuilt-data',
    setup(build) {
      build.onLoad({ filter: /[\\/]server[\\/]prebuilt-data\.ts$/ }, () => ({
        loader: 'js',
        contents: `
          const texts = ${JSON.stringify(texts)}
          export function prebuiltData(scenario, seed) {
            const text = texts[scenario + '@' + seed]
            return text === undefined ? undefined : JSON.parse(text)
          }`,
      }))
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
  const texts = await computePrebuiltData(esbuild, staging)
  const result = await esbuild.build({
    entryPoints: [join(root, 'server', 'cli.ts')],
    outfile: join(staging, 'cli.cjs'),
    bundle: true,
    minify: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: Object.keys(lazyPackages),
    plugins: [prebuiltDataModule(texts), lazyRequires, lazyFaker, mcpModule],
    metafile: true,
    logLevel: 'warning',
    // Code that reads `import.meta.url` checks for CommonJS's `require` first.
    logOverride: { 'empty-import-meta': 'silent' },
  })
  const mcp = await esbuild.build({
    stdin: { contents: MCP_ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'mcp-entry.ts' },
    outfile: join(staging, 'mcp.cjs'),
    bundle: true,
    minify: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  })
  const inputs = [...Object.keys(result.metafile.inputs), ...Object.keys(mcp.metafile.inputs)]
    .filter((input) => !input.includes('node_modules') && !input.includes(':'))
    .filter((input, index, all) => all.indexOf(input) === index && input !== 'mcp-entry.ts')
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
