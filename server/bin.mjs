#!/usr/bin/env node
/**
 * The `platform-sandbox` command. Runs the bundled server (`server/dist/cli.cjs`)
 * with V8's code cache, building it first when it is missing or older than its
 * sources; if it cannot be built (no esbuild), runs the TypeScript sources through
 * tsx instead.
 */
import { buildBundle, codeCache, entry, isBundleFresh } from './bundle.mjs'
import { runBundle } from './run-bundle.mjs'

// Set by the build itself when it starts the new bundle to warm its code cache.
let bundled = isBundleFresh() || process.env.SANDBOX_BUNDLE_WARMUP === '1'
if (!bundled) {
  try {
    await buildBundle()
    bundled = true
  } catch (error) {
    if (process.env.SANDBOX_DEBUG) console.error(error)
  }
}
if (bundled) {
  runBundle(entry, codeCache)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('./cli.ts')
}
