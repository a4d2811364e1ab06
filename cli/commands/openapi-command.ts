/**
 * @module
 * `platform-sandbox openapi --operations <file> [--merged] [--out <file>]`: the app document
 * (what code generators take: hey-api, orval, openapi-typescript) or the merged one, with the
 * operations of your own in it, each marked `x-sandbox-proposed: true` and tagged `Proposed`.
 */
import { writeFileSync } from 'node:fs'
import { proposedDocument } from '../../mocks/core/index.ts'
import {
  acceptedExampleNames,
  createAppDocument,
  type OpenAPIDocument,
} from '../../spec/app-document.ts'
import { recordedExamples } from '../../spec/examples/index.ts'
import merged from '../../spec/merged-document.ts'
import { sandboxOperations } from '../operations-file.ts'

export interface OpenapiCommandOptions {
  operations?: string
  merged?: boolean
  out?: string
}

export async function runOpenapiCommand(options: OpenapiCommandOptions): Promise<void> {
  const operations = await sandboxOperations(options.operations)
  const full = proposedDocument(merged as unknown as OpenAPIDocument, operations)
  const accepted = { acceptedExamples: acceptedExampleNames(recordedExamples) }
  const text = `${JSON.stringify(options.merged ? full : createAppDocument(full, accepted), null, 2)}\n`
  if (options.out === undefined) return void process.stdout.write(text)
  writeFileSync(options.out, text)
  console.error(
    `platform-sandbox: wrote the ${options.merged ? 'merged' : 'app'} document to ${options.out}`,
  )
}
