#!/usr/bin/env node
/**
 * The `platform-sandbox` command. Runs the bundled server (`dist/cli/cli.cjs`, built by
 * `npm run build`) with V8's code cache, kept in the system's temporary folder so that
 * nothing is written into `node_modules`.
 *
 * In a checkout of the repository, the bundle is rebuilt first when it is missing or older
 * than its sources; if it cannot be built, the TypeScript sources run through tsx instead.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { codeCacheFile, runBundle } from './run-bundle.mjs'

const bundle = fileURLToPath(new URL('../dist/cli/cli.cjs', import.meta.url))
const builder = new URL('../server/bundle.mjs', import.meta.url)

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
  runBundle(bundle, codeCacheFile(bundle))
} else if (existsSync(fileURLToPath(new URL('../server/cli.ts', import.meta.url)))) {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../server/cli.ts')
} else {
  console.error(
    `platform-sandbox: ${bundle} is missing; reinstall the package (its build did not run).`,
  )
  process.exit(2)
}
