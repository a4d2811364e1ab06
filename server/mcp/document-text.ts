/**
 * @module
 * The tools' descriptions come from where the API reference's come from: the merged
 * document's summary and description of the operation or control route a tool calls.
 */
import merged from '../../spec/merged-document.ts'

interface DocumentedOperation {
  summary?: string
  description?: string
}

const paths = merged.paths as unknown as Record<string, Record<string, DocumentedOperation>>

/** "Summary. Description" of `method path` in the merged document. */
export function documentText(method: string, path: string): string {
  const operation = paths[path]?.[method.toLowerCase()]
  if (!operation)
    throw new Error(`Failed to describe ${method} ${path}: not in the merged document`)
  const summary = operation.summary?.replace(/\.?$/, '.') ?? ''
  return [summary, operation.description ?? ''].filter((part) => part !== '').join(' ')
}
