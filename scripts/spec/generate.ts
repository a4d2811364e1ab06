/**
 * Writes the files generated from the contract (see `generated-files.ts`).
 *
 * Usage: `npm run generate`
 *
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { renderGeneratedFiles } from './generated-files.ts'

try {
  for (const [path, contents] of await renderGeneratedFiles()) {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, contents)
    console.log(`generate: wrote ${relative(process.cwd(), path)}`)
  }
} catch (error) {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
