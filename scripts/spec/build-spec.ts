/**
 * Writes the merged contract (published document + sandbox overlay) to
 * `spec/dist/platform-api.sandbox.openapi.json`.
 *
 * Usage: `npx tsx scripts/spec/build-spec.ts`
 *
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type BuildMergedDocumentOptions,
  buildMergedDocument,
  MERGED_SPEC_PATH,
} from './build-document.ts'

/** Builds the merged document and writes it as JSON; returns the path written. */
export async function writeMergedDocument(
  outputPath: string = MERGED_SPEC_PATH,
  options: BuildMergedDocumentOptions = {},
): Promise<string> {
  const document = await buildMergedDocument(options)
  await mkdir(dirname(outputPath), { recursive: true })
  await writeFile(outputPath, `${JSON.stringify(document, null, 2)}\n`)
  return outputPath
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href

if (isMain) {
  try {
    const written = await writeMergedDocument()
    console.log(`Wrote ${relative(process.cwd(), written)}`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
