/**
 * @module
 * What the merged document says, per operation, from the recorded examples of `spec/examples/`,
 * so that a suite or a client generated from it can call each operation as is:
 * - every path parameter's `example` is the value of the operation's first recorded success,
 *   an id of the fixtures (`fixtures/anchors.ts`) that the call succeeds on;
 * - `x-sandbox-persona` names the persona that success was recorded for (absent on the public
 *   operations): whose access token to send with the documented examples, for example the
 *   booking's host to decline it, the admin to approve a review;
 * - the `Prefer` header is written out on each operation with the examples that exist there:
 *   `example=<name>` for each of its recorded examples, a gateway's `code=503`, and a delay.
 *   Its description lists the statuses `code=` takes on that operation: those documented on it.
 */
import type { RecordedExample } from '../../spec/examples/index.ts'

/** The part of an OpenAPI document this module reads and changes. */
export interface DocumentWithOperations {
  paths: Record<string, Record<string, unknown>>
  components?: Record<string, Record<string, unknown>>
}

/** The vendor field naming the persona an operation's examples were recorded for. */
export const PERSONA_FIELD = 'x-sandbox-persona'

const PREFER_REF = '#/components/parameters/SandboxPrefer'

type JsonObject = Record<string, unknown>

/**
 * Adds the path parameter examples and `x-sandbox-persona` of each operation that has
 * recorded examples, and writes out its `Prefer` header with the examples offered there.
 * Throws when an operation has no recorded success or that success lacks a path parameter.
 *
 * @example
 * const merged = withOperationExamples(document, recordedExamples)
 * merged.paths['/bookings/{bookingId}/decline'].post['x-sandbox-persona'] // 'host'
 */
export function withOperationExamples<Document extends DocumentWithOperations>(
  document: Document,
  examples: readonly RecordedExample[],
): Document {
  const prefer = asRecord(document.components?.parameters?.SandboxPrefer)
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || typeof operation.operationId !== 'string') continue
      const recorded = examples.filter((example) => example.operationId === operation.operationId)
      if (recorded.length === 0) continue
      const success = recorded.find(({ response }) => response.status < 300)
      if (!success) {
        throw new Error(`Failed to add examples to ${operation.operationId}: no recorded success`)
      }
      addPathExamples(path, operation, success)
      if (prefer) writeOutPrefer(operation, prefer, recorded)
    }
  }
  // Every operation now carries its own copy, with its own examples.
  if (prefer) delete document.components?.parameters?.SandboxPrefer
  return document
}

function addPathExamples(path: string, operation: JsonObject, success: RecordedExample): void {
  if (success.request.as !== undefined) operation[PERSONA_FIELD] = success.request.as
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
  for (const parameter of parameters) {
    if (!isRecord(parameter) || parameter.in !== 'path') continue
    const value = success.request.params?.[String(parameter.name)]
    if (value === undefined) {
      throw new Error(
        `Failed to add an example to the path parameter "${String(parameter.name)}" of ${path}: the recorded success ${success.name} gives none`,
      )
    }
    parameter.example = value
  }
}

function writeOutPrefer(
  operation: JsonObject,
  prefer: JsonObject,
  recorded: readonly RecordedExample[],
): void {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
  const index = parameters.findIndex((parameter) => asRecord(parameter)?.$ref === PREFER_REF)
  if (index === -1) return
  const statuses = Object.keys(asRecord(operation.responses) ?? {}).filter((status) =>
    /^\d{3}$/.test(status),
  )
  const offered: Record<string, { summary: string; value: string }> = {}
  for (const example of recorded) {
    offered[example.name] = {
      summary: `${example.response.status}: ${example.summary}`,
      value: `example=${example.name}`,
    }
  }
  const extra = {
    serviceUnavailable: { summary: "503: a gateway's answer", value: 'code=503' },
    slow: { summary: 'The real answer, 300 ms late', value: 'delay=300' },
  }
  for (const [name, example] of Object.entries(extra)) {
    if (name in offered) {
      throw new Error(
        `Failed to write out the Prefer header of ${String(operation.operationId)}: a recorded example is named "${name}"`,
      )
    }
    offered[name] = example
  }
  const names = recorded.map((example) => example.name)
  parameters[index] = {
    ...structuredClone(prefer),
    description: `${String(prefer.description)} On this operation, \`code=\` takes ${statuses.join(', ')} (the statuses documented here) and \`example=\` takes ${names.join(', ')}.`,
    examples: offered,
  }
}

/**
 * The statuses documented on each operation that takes the `Prefer` header, by operationId:
 * what `Prefer: code=` accepts there.
 */
export function documentedStatuses(document: DocumentWithOperations): Record<string, number[]> {
  const statuses: Record<string, number[]> = {}
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || typeof operation.operationId !== 'string') continue
      if (!takesPrefer(operation)) continue
      statuses[operation.operationId] = Object.keys(asRecord(operation.responses) ?? {})
        .filter((status) => /^\d{3}$/.test(status))
        .map(Number)
        .sort((a, b) => a - b)
    }
  }
  return statuses
}

function takesPrefer(operation: JsonObject): boolean {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : []
  return parameters.some(
    (parameter) =>
      asRecord(parameter)?.in === 'header' &&
      String(asRecord(parameter)?.name).toLowerCase() === 'prefer',
  )
}

function asRecord(value: unknown): JsonObject | undefined {
  return isRecord(value) ? value : undefined
}

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
