/**
 * @module
 * Packs the package as `npm publish` would, from the build already in `dist/` (run
 * `npm run build` first): `npm pack --ignore-scripts`, so the build is not run again.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))

/** Packs into a new temporary folder (or `destination`); returns the tarball's path. */
export function packTarball(destination = mkdtempSync(join(tmpdir(), 'platform-sandbox-pack-'))) {
  if (!existsSync(join(root, 'dist', 'index.js')) || !existsSync(join(root, 'dist', 'cli'))) {
    throw new Error('Failed to pack: dist/ is incomplete, run `npm run build` first')
  }
  const output = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const [packed] = JSON.parse(output)
  return join(destination, packed.filename)
}
