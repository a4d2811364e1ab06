/**
 * An app that calls only `startSandboxWorker()` bundles no replay nor HAR code in what it loads
 * first: both are chunks of their own, loaded when the app asks for a replay or a HAR export.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'

const entry = fileURLToPath(new URL('./index.ts', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'browser-entry-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Words of the replay modules (`recordings/replay/`) and of the HAR writer (`recordings/har.ts`). */
const MARKERS = ['No recording matched', 'RecordingsFormatError', 'createHarEntry', 'redirectURL']

/** The app's bundle: its first file with the chunks it imports statically, and the others. */
async function bundleApp(source: string) {
  const app = join(folder, 'app.ts')
  writeFileSync(app, source)
  const { outputFiles } = await build({
    entryPoints: [app],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(folder, 'out'),
    write: false,
    logLevel: 'silent',
  })
  const byName = new Map(outputFiles.map((file) => [file.path.split('/').pop()!, file.text]))
  const first = new Set<string>()
  const visit = (name: string) => {
    if (first.has(name)) return
    first.add(name)
    for (const [, imported] of byName.get(name)!.matchAll(/^import\s[^;]*?"\.\/([^"]+)"/gm)) {
      visit(imported!)
    }
  }
  visit('app.js')
  const text = (names: string[]) => names.map((name) => byName.get(name)).join('\n')
  return {
    first: text([...first]),
    later: text([...byName.keys()].filter((name) => !first.has(name))),
  }
}

describe('the browser entry', () => {
  it('holds no replay or HAR code for an app that calls only startSandboxWorker()', async () => {
    const { first, later } = await bundleApp(
      `import { startSandboxWorker } from ${JSON.stringify(entry)}\nawait startSandboxWorker()\n`,
    )
    for (const marker of MARKERS) {
      expect(first, marker).not.toContain(marker)
      // The lazy chunks have them: the markers are the modules' own words.
      expect(later, marker).toContain(marker)
    }
  })
})
