/**
 * @module
 * Bundles the dashboard (`main.ts`, preact + htm) into a string module served at
 * `/__sandbox/dashboard.js`, so every build holds it with nothing to copy. It is committed;
 * `npm run build:dashboard` rewrites it, and a test fails when it is stale.
 */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

export const dashboardModule = fileURLToPath(
  new URL('../server/console/dashboard-script.generated.ts', import.meta.url),
)

export async function buildDashboard() {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../server/dashboard/main.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  })
  const script = result.outputFiles[0].text
  return `// Generated from server/dashboard/main.ts by \`npm run build:dashboard\`. Do not edit.\nexport const dashboardScript = ${JSON.stringify(script)}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(dashboardModule, await buildDashboard())
  console.log(`wrote ${dashboardModule}`)
}
