#!/usr/bin/env node
/**
 * The `platform-sandbox` command. Runs the bundled server (`server/dist/cli.js`),
 * building it first when it is missing or older than its sources; if it cannot be
 * built (no esbuild), runs the TypeScript sources through tsx instead.
 */
import { pathToFileURL } from 'node:url'
import { buildBundle, entry, isBundleFresh } from './bundle.mjs'

let target = entry
if (!(await isBundleFresh())) {
  try {
    await buildBundle()
  } catch (error) {
    if (process.env.SANDBOX_DEBUG) console.error(error)
    const { register } = await import('tsx/esm/api')
    register()
    target = new URL('./cli.ts', import.meta.url).pathname
  }
}
await import(pathToFileURL(target).href)
