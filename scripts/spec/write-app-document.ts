/**
 * Writes the app document (`platform-sandbox/openapi.app.json`, see `../app-document.ts`)
 * from the committed merged document; part of `npm run build`.
 *
 * Usage: `npx tsx scripts/spec/write-app-document.ts [output]` (default `dist/openapi.app.json`)
 *
 * @module
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  acceptedExampleNames,
  createAppDocument,
  type OpenAPIDocument,
} from '../../spec/app-document.ts'
import { recordedExamples } from '../../spec/examples/index.ts'
import { MERGED_JSON_PATH } from './generated-files.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const APP_DOCUMENT_PATH = resolve(ROOT, 'dist', 'openapi.app.json')

/** The app document of the committed merged document (`spec/generated/openapi.json`). */
export async function renderAppDocument(): Promise<OpenAPIDocument> {
  const merged = JSON.parse(await readFile(MERGED_JSON_PATH, 'utf8')) as OpenAPIDocument
  return createAppDocument(merged, { acceptedExamples: acceptedExampleNames(recordedExamples) })
}

/** Writes the app document as JSON; returns the path written. */
export async function writeAppDocument(outputPath: string = APP_DOCUMENT_PATH): Promise<string> {
  await mkdir(dirname(outputPath), { recursive: true })
  await writeFile(outputPath, `${JSON.stringify(await renderAppDocument(), null, 2)}\n`)
  return outputPath
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href

if (isMain) {
  try {
    const written = await writeAppDocument(process.argv[2] && resolve(process.argv[2]))
    console.log(`app document: ${relative(process.cwd(), written)}`)
  } catch (error) {
    console.error(`app document: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
