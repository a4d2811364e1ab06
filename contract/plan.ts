/**
 * @module
 * What the contract check reads from a contract document, and how it decides, per document,
 * which cases go through Prism and in which form.
 *
 * - A case goes to a document only if the document documents the case's status for the
 *   operation (explicitly, or a 2xx through `default`). The published contract documents
 *   errors for row 1 only; a sandbox 403/404/409 there is a gap of the reference, not a
 *   mismatch, and Prism would report every one of them as "Unable to match the returned status
 *   code". The merged contract documents every status the sandbox answers, so every case goes
 *   there.
 * - A required query parameter the case leaves out is filled in with its default, or its only
 *   allowed value: the published contract requires `dryRun=true`, so the writing calls of the
 *   case list are checked against it as their `dryRun=true` twins (which answer the same).
 */
import { parseFile } from 'openapi-format'
import type { ConformanceCase, DocumentKind } from '../spec/cases/types.ts'

type JsonObject = Record<string, unknown>

/** A contract document to check the sandbox against. */
export interface ContractDocument {
  kind: DocumentKind
  /** Path of the YAML or JSON file Prism reads. */
  path: string
}

export interface DocumentOperation {
  operationId: string
  method: string
  path: string
  /** Response keys as written: `200`, `4XX`, `default`. */
  statuses: string[]
  /** Required query parameters, with the value to use when a request leaves one out. */
  requiredQuery: Map<string, string | undefined>
  /** The document's own request body examples, by name. */
  requestExamples: Map<string, unknown>
}

/**
 * `expect.status` of a case whose status is not known in advance (the contract's own request
 * examples): any status the contract documents is accepted, and Prism flags any other.
 */
export const ANY_DOCUMENTED_STATUS = 0

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

/** Reads a contract document (YAML or JSON). */
export async function loadDocument(path: string): Promise<JsonObject> {
  const parsed: unknown = await parseFile(path)
  if (parsed instanceof Error) throw new Error(`Failed to read ${path}: ${parsed.message}`)
  if (!isRecord(parsed) || !isRecord(parsed.paths)) {
    throw new Error(`Failed to read ${path}: not an OpenAPI document`)
  }
  return parsed
}

/** The document's operations, by operationId. */
export function indexOperations(document: JsonObject): Map<string, DocumentOperation> {
  const operations = new Map<string, DocumentOperation>()
  for (const [path, item] of Object.entries(document.paths as JsonObject)) {
    if (!isRecord(item)) continue
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method) || !isRecord(raw) || typeof raw.operationId !== 'string') {
        continue
      }
      const parameters = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(raw.parameters) ? raw.parameters : []),
      ].map((parameter) => deref(document, parameter))
      const requiredQuery = new Map<string, string | undefined>()
      for (const parameter of parameters) {
        if (!isRecord(parameter) || parameter.in !== 'query' || parameter.required !== true) {
          continue
        }
        const schema = isRecord(parameter.schema) ? parameter.schema : {}
        const only =
          Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined
        const value = schema.default ?? only
        requiredQuery.set(String(parameter.name), value === undefined ? undefined : String(value))
      }
      const examples = at(
        deref(document, raw.requestBody),
        'content',
        'application/json',
        'examples',
      )
      const requestExamples = new Map<string, unknown>()
      for (const [name, example] of Object.entries(isRecord(examples) ? examples : {})) {
        const resolved = deref(document, example)
        if (isRecord(resolved) && 'value' in resolved) requestExamples.set(name, resolved.value)
      }
      operations.set(raw.operationId, {
        operationId: raw.operationId,
        method: method.toUpperCase(),
        path,
        statuses: Object.keys(isRecord(raw.responses) ? raw.responses : {}),
        requiredQuery,
        requestExamples,
      })
    }
  }
  return operations
}

/** Whether `operation` documents `status`: exactly, by range (`4XX`), or a 2xx by `default`. */
export function documentsStatus(operation: DocumentOperation, status: number): boolean {
  const text = String(status)
  return operation.statuses.some(
    (key) =>
      key === text ||
      key.toUpperCase() === `${text[0]}XX` ||
      (key === 'default' && status >= 200 && status < 300),
  )
}

/** `url` with every required query parameter it leaves out filled in (when the document says how). */
export function fillRequiredQuery(url: string, operation: DocumentOperation): string {
  const parsed = new URL(url, 'http://sandbox.invalid')
  for (const [name, value] of operation.requiredQuery) {
    if (!parsed.searchParams.has(name) && value !== undefined) parsed.searchParams.set(name, value)
  }
  return `${parsed.pathname}${parsed.search}`
}

/** How a case is sent to one document's proxies. */
export type CasePlan =
  | { route: 'skip'; reason: string }
  | { route: 'not-applicable'; reason: string }
  | { route: 'forward'; url: string }
  | { route: 'refuse-then-forward'; url: string }

/** Decides how `testCase` is checked against `document` (see the module comment). */
export function planCase(
  testCase: ConformanceCase,
  kind: DocumentKind,
  operations: Map<string, DocumentOperation>,
): CasePlan {
  const operation = operations.get(testCase.operationId)
  const status = testCase.expect.status
  if (
    operation &&
    kind === 'published' &&
    status !== ANY_DOCUMENTED_STATUS &&
    !documentsStatus(operation, status)
  ) {
    return {
      route: 'not-applicable',
      reason: `the published contract documents no ${status} for ${testCase.operationId}`,
    }
  }
  if (testCase.contract?.skip) return { route: 'skip', reason: testCase.contract.skip }
  if (!operation) {
    // Still sent: Prism then says the route is unknown, which is the drift to report.
    return { route: 'forward', url: testCase.request.url }
  }
  const url = fillRequiredQuery(testCase.request.url, operation)
  return testCase.contract?.breaks?.includes(kind)
    ? { route: 'refuse-then-forward', url }
    : { route: 'forward', url }
}

function deref(document: JsonObject, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) {
    return value
  }
  const keys = value.$ref
    .slice(2)
    .split('/')
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
  return at(document, ...keys)
}

function at(value: unknown, ...keys: string[]): unknown {
  let current = value
  for (const key of keys) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
