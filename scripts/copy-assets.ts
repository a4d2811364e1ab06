/**
 * Copies the files the server serves at run time into `dist/assets/` (part of
 * `npm run build`): Scalar's standalone API reference script, made offline, so that an
 * installed package serves `/__sandbox/docs` without depending on `@scalar/api-reference`
 * (over 150 MB installed) and without a CDN.
 *
 * @module
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { offlineScalarScript, scalarScriptPath } from '../server/console/api-reference.ts'

const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url))
await mkdir(assets, { recursive: true })
const scalar = offlineScalarScript(await readFile(scalarScriptPath(), 'utf8'))
await writeFile(`${assets}scalar.js`, scalar)
console.log(`copy-assets: dist/assets/scalar.js (${Math.round(scalar.length / 1024)} kB)`)
