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

interface SchemaWithProperties {
  $ref?: string
  properties?: Record<string, { description?: string }>
}

/** The merged document's description of each field of `method path`'s JSON request body. */
export function bodyFieldTexts(method: string, path: string): Record<string, string> {
  const operation = paths[path]?.[method.toLowerCase()] as
    | { requestBody?: { content?: Record<string, { schema?: SchemaWithProperties }> } }
    | undefined
  let schema = operation?.requestBody?.content?.['application/json']?.schema
  const components = (merged as unknown as { components?: { schemas?: object } }).components
  if (schema?.$ref) {
    schema = (components?.schemas as Record<string, SchemaWithProperties> | undefined)?.[
      schema.$ref.split('/').at(-1)!
    ]
  }
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {})
      .filter(([, property]) => property.description)
      .map(([name, property]) => [name, property.description!]),
  )
}
