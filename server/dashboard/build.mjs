/**
 * @module
 * Bundles the dashboard (`server/dashboard/app/main.ts`, preact + htm) into one
 * script, `server/dashboard/assets/dashboard.js`, which the server serves at
 * `/__sandbox/dashboard.js`. The output is committed, so the server needs no build
 * step; `npm run build:dashboard` rewrites it, and a test fails when it is stale.
 */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

export const dashboardEntry = fileURLToPath(new URL('./app/main.ts', import.meta.url))
export const dashboardAsset = fileURLToPath(new URL('./assets/dashboard.js', import.meta.url))

/** The bundle's text. */
export async function buildDashboard() {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [dashboardEntry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  return `/* Built from server/dashboard/app by npm run build:dashboard. Do not edit. */\n${result.outputFiles[0].text}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(dashboardAsset, await buildDashboard())
  console.log(`wrote ${dashboardAsset}`)
}
