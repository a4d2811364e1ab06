/**
 * @module
 * The two contract documents the check runs against: the published contract as it is on
 * disk (or a candidate new reference), and the merged document built from it with the
 * sandbox's overlay and recorded examples, written to a temporary file for Prism.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PUBLISHED_SPEC_PATH } from '../scripts/spec/build-document.ts'
import { writeMergedDocument } from '../scripts/spec/build-spec.ts'
import type { DocumentKind } from '../spec/cases/types.ts'
import type { ContractDocument } from './plan.ts'

export interface PreparedDocuments {
  documents: ContractDocument[]
  /** Why a document could not be prepared (the overlay no longer applies, for instance). */
  errors: { kind: DocumentKind; message: string }[]
  /** Deletes the temporary files. */
  cleanup(): Promise<void>
}

/**
 * Prepares the documents of `kinds` (default both). With `publishedPath`, that file stands in
 * for `spec/platform-api.openapi.yaml` in both documents.
 */
export async function prepareDocuments(
  options: { publishedPath?: string; kinds?: readonly DocumentKind[] } = {},
): Promise<PreparedDocuments> {
  const kinds = options.kinds ?? ['published', 'merged']
  const publishedPath = resolve(options.publishedPath ?? PUBLISHED_SPEC_PATH)
  const directory = await mkdtemp(join(tmpdir(), 'platform-sandbox-contract-'))
  const documents: ContractDocument[] = []
  const errors: PreparedDocuments['errors'] = []
  if (kinds.includes('published')) documents.push({ kind: 'published', path: publishedPath })
  if (kinds.includes('merged')) {
    try {
      const path = await writeMergedDocument(join(directory, 'platform-api.sandbox.openapi.json'), {
        publishedPath,
      })
      documents.push({ kind: 'merged', path })
    } catch (error) {
      errors.push({
        kind: 'merged',
        message: error instanceof Error ? error.message : String(error),
      })
    }
  }
  return {
    documents,
    errors,
    cleanup: () => rm(directory, { recursive: true, force: true }),
  }
}
