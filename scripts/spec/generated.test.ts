import { readFile } from 'node:fs/promises'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderGeneratedFiles } from './generated-files.ts'

describe('the generated contract files', () => {
  it('match the contract and the overlay they are generated from (npm run generate)', async () => {
    const stale: string[] = []
    for (const [path, expected] of await renderGeneratedFiles()) {
      const committed = await readFile(path, 'utf8').catch(() => '')
      if (committed !== expected) stale.push(relative(process.cwd(), path))
    }
    expect(stale, 'stale generated files: run `npm run generate` and commit them').toEqual([])
  })
})
