/**
 * Turns the recorded exchanges of `spec/examples/` into an Overlay 1.0 document that puts
 * them into a contract as OpenAPI `examples`: the request body under
 * `requestBody.content['application/json'].examples.<name>` and the answer under
 * `responses.<status>.content['application/json'].examples.<name>`, the same name on both
 * sides, so that `prism mock` answers `Prefer: code=<status>, example=<name>` with it.
 *
 * A response that is a `$ref` to a shared `components.responses` entry is inlined for that
 * operation first (a Reference Object cannot carry examples); its schema stays a `$ref`.
 *
 * @module
 */
import type { OpenAPIOverlayAction } from 'openapi-format'
import type { RecordedExample } from '../../spec/examples/index.ts'

type JsonObject = Record<string, unknown>

/** The part of an OpenAPI document this module reads. */
export interface DocumentWithPaths {
  paths: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

interface ExampleObject {
  summary: string
  value: unknown
}

const JSON_MEDIA_TYPE = 'application/json'

/**
 * The overlay actions that add `examples` to `document`. Throws when an example names an
 * operation, a status or a body the document does not have, or reuses an example name the
 * document already holds, so that no recorded exchange is dropped silently.
 *
 * @example
 * const actions = createExampleActions(merged, recordedExamples)
 * const { data } = await openapiOverlay(merged, { overlaySet: { overlay: '1.0.0', info, actions } })
 */
export function createExampleActions(
  document: DocumentWithPaths,
  examples: readonly RecordedExample[],
): OpenAPIOverlayAction[] {
  const requestExamples = new Map<string, Record<string, ExampleObject>>()
  const responseExamples = new Map<string, Record<string, ExampleObject>>()
  const locations = new Map<string, { path: string; method: string; status?: string }>()

  for (const example of examples) {
    const method = example.method.toLowerCase()
    const operation = asRecord(document.paths[example.path]?.[method])
    const where = `${example.operationId}/${example.name}`
    if (!operation || operation.operationId !== example.operationId) {
      throw new Error(
        `Failed to add example ${where}: the document has no operation ${example.operationId} at ${example.method} ${example.path}`,
      )
    }
    const summary = example.summary

    if (example.request.body !== undefined) {
      const content = asRecord(at(operation, 'requestBody', 'content', JSON_MEDIA_TYPE))
      if (!content) {
        throw new Error(`Failed to add example ${where}: the operation takes no JSON body`)
      }
      assertNewName(content, example.name, `${where} (request body)`)
      const key = `${example.path} ${method}`
      locations.set(key, { path: example.path, method })
      const byName = requestExamples.get(key) ?? {}
      byName[example.name] = { summary, value: example.request.body }
      requestExamples.set(key, byName)
    }

    if (example.response.body !== undefined) {
      const status = String(example.response.status)
      const response = resolveResponse(document, at(operation, 'responses', status))
      const content = asRecord(at(response, 'content', JSON_MEDIA_TYPE))
      if (!content) {
        throw new Error(
          `Failed to add example ${where}: the operation documents no JSON ${status} response`,
        )
      }
      assertNewName(content, example.name, `${where} (${status} response)`)
      const key = `${example.path} ${method} ${status}`
      locations.set(key, { path: example.path, method, status })
      const byName = responseExamples.get(key) ?? {}
      byName[example.name] = { summary, value: example.response.body }
      responseExamples.set(key, byName)
    }
  }

  const actions: OpenAPIOverlayAction[] = []
  for (const [key, byName] of requestExamples) {
    const { path, method } = locations.get(key)!
    actions.push({
      target: `${operationTarget(path, method)}.requestBody.content['${JSON_MEDIA_TYPE}']`,
      description: `Recorded request examples (spec/examples/): ${Object.keys(byName).join(', ')}`,
      update: { examples: byName },
    })
  }
  for (const [key, byName] of responseExamples) {
    const { path, method, status } = locations.get(key)!
    const responses = `${operationTarget(path, method)}.responses`
    const description = `Recorded ${status} examples (spec/examples/): ${Object.keys(byName).join(', ')}`
    const current = at(document.paths[path]?.[method], 'responses', status!)
    if (isReference(current)) {
      const inlined = structuredClone(resolveResponse(document, current)) as JsonObject
      if (typeof current.description === 'string') inlined.description = current.description
      const content = asRecord(at(inlined, 'content', JSON_MEDIA_TYPE))!
      content.examples = { ...asRecord(content.examples), ...byName }
      actions.push({ target: `${responses}['${status}']`, description, remove: true })
      actions.push({ target: responses, description, update: { [status!]: inlined } })
    } else {
      actions.push({
        target: `${responses}['${status}'].content['${JSON_MEDIA_TYPE}']`,
        description,
        update: { examples: byName },
      })
    }
  }
  return actions
}

function operationTarget(path: string, method: string): string {
  return `$.paths['${path}'].${method}`
}

function assertNewName(content: JsonObject, name: string, where: string): void {
  if (asRecord(content.examples)?.[name] !== undefined) {
    throw new Error(`Failed to add example ${where}: the document already has an example "${name}"`)
  }
}

/** Follows a local `#/components/responses/...` reference, if the value is one. */
function resolveResponse(document: DocumentWithPaths, value: unknown): JsonObject | undefined {
  if (!isReference(value)) return asRecord(value)
  const keys = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
  return asRecord(at(document, ...keys))
}

function isReference(value: unknown): value is JsonObject & { $ref: string } {
  return typeof asRecord(value)?.$ref === 'string'
}

function at(value: unknown, ...keys: string[]): unknown {
  let current = value
  for (const key of keys) {
    const record = asRecord(current)
    if (!record) return undefined
    current = record[key]
  }
  return current
}

function asRecord(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined
}
