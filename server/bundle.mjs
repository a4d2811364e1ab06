/**
 * @module
 * Bundles the server into `server/dist/` with esbuild, so that it starts in a
 * fraction of the time tsx needs to compile the TypeScript sources on every run.
 * Run it with `npm run build:server`; `bin.mjs` also runs it when the bundle is
 * older than its sources.
 *
 * What is not needed to answer the first request is kept out of the start-up path:
 * the merged-contract builder (openapi-format, yaml) is a chunk loaded on the first
 * `GET /__sandbox/openapi.json`, and body-parser (with iconv-lite), which Express
 * loads eagerly but the sandbox never uses, is only required if someone calls it.
 */
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const outdir = join(root, 'server', 'dist')
export const entry = join(outdir, 'cli.js')
const manifest = join(outdir, 'inputs.json')

/** Keeps `import.meta.url` of repository sources pointing at the source file, not the bundle. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes('node_modules')) return undefined
      const source = await readFile(args.path, 'utf8')
      if (!source.includes('import.meta.url')) return undefined
      return {
        contents: source.replaceAll(
          'import.meta.url',
          JSON.stringify(pathToFileURL(args.path).href),
        ),
        loader: 'ts',
      }
    })
  },
}

/** body-parser, required on first use instead of when Express loads. */
const lazyBodyParser = {
  name: 'lazy-body-parser',
  setup(build) {
    build.onResolve({ filter: /^body-parser$/ }, (args) =>
      args.namespace === 'lazy' ? undefined : { path: 'body-parser', namespace: 'lazy' },
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: `
        let parser
        const load = () => (parser ??= require('body-parser'))
        module.exports = {
          json: (...args) => load().json(...args),
          raw: (...args) => load().raw(...args),
          text: (...args) => load().text(...args),
          urlencoded: (...args) => load().urlencoded(...args),
        }`,
    }))
  },
}

/** Builds the bundle and records its inputs, for `isBundleFresh()`. */
export async function buildBundle() {
  const esbuild = await import('esbuild')
  // Built aside and moved in place, so a server starting meanwhile never sees half a bundle.
  const staging = `${outdir}.${process.pid}`
  // A source saved while the build runs must count as newer than the bundle.
  const builtAt = Date.now()
  await rm(staging, { recursive: true, force: true })
  const result = await esbuild.build({
    entryPoints: [join(root, 'server', 'cli.ts')],
    outdir: staging,
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['body-parser'],
    plugins: [sourceUrls, lazyBodyParser],
    banner: {
      // CommonJS dependencies (Express) call require(); give the ESM bundle one.
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  })
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes('node_modules') && !input.includes(':'))
    .map((input) => relative(root, join(process.cwd(), input)))
  inputs.push('package-lock.json')
  await writeFile(join(staging, 'inputs.json'), JSON.stringify({ builtAt, inputs }, null, 2))
  await rm(outdir, { recursive: true, force: true })
  await rename(staging, outdir)
  return entry
}

/** Whether the bundle exists and no source it was built from changed since. */
export async function isBundleFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(await readFile(manifest, 'utf8'))
    const times = await Promise.all(
      inputs.map((input) => stat(join(root, input)).then((s) => s.mtimeMs)),
    )
    await stat(entry)
    return times.every((time) => time <= builtAt)
  } catch {
    return false
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildBundle()
  console.log(`Bundled the server into ${relative(process.cwd(), dirname(built))}/`)
}
