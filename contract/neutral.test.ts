import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CONTRACT_DIR = dirname(fileURLToPath(import.meta.url))

describe('the conformance list and its runner', () => {
  it('type-check without Node types, so that a browser page can run them', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const result = spawnSync(
      process.execPath,
      [tsc, '-p', resolve(CONTRACT_DIR, 'tsconfig.neutral.json'), '--noEmit'],
      { encoding: 'utf8', timeout: 60_000 },
    )

    expect(`${result.stdout}${result.stderr}`.trim()).toBe('')
    expect(result.status).toBe(0)
  }, 60_000)
})
