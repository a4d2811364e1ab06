/**
 * @module
 * Checks one answer of the sandbox against the merged document: its status must be
 * documented for the operation, its body must match the schema documented for that
 * status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it), and it is never a 5xx but
 * one a fault rule or `Prefer` asked for (marked `x-sandbox-fault`). A method the document
 * does not list for a path must be a 405 whose `Allow` lists exactly the documented ones
 * (204 for `OPTIONS`); `HEAD` is checked as the `GET` without a body.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { SandboxResponse } from '../../mocks/core/index.ts'
import type { OpenAPIDocument } from '../../spec/app-document.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

export interface DocumentedOperation {
  /** Path template of the document, `/bookings/{bookingId}/decline`. */
  path: string
  method: string
  operationId: string
  responses: Record<string, unknown>
  /** The property names of its JSON request body, as documented. */
  bodyFields: string[]
}

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function bodyFieldsOf(document: OpenAPIDocument, operation: Json): string[] {
  const body = operation.requestBody as Json | undefined
  let schema = ((body?.content as Json | undefined)?.['application/json'] as Json | undefined)
    ?.schema as Json | undefined
  if (typeof schema?.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? ''
    schema = (document.components?.schemas as Json | undefined)?.[name] as Json | undefined
  }
  return Object.keys((schema?.properties as Json | undefined) ?? {})
}

export function createDocumentChecker(document: OpenAPIDocument) {
  // Every `#/components/...` reference points into the document registered as "doc".
  const rewritten = JSON.parse(
    JSON.stringify(document).replaceAll('"#/components/', '"doc#/components/'),
  ) as OpenAPIDocument
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: rewritten.components ?? {} } as never)
  const validators = new Map<string, ValidateFunction>()

  const operations: DocumentedOperation[] = []
  for (const [path, item] of Object.entries(rewritten.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method]
      if (!isRecord(operation)) continue
      operations.push({
        path,
        method: method.toUpperCase(),
        operationId: String(operation.operationId),
        responses: (operation.responses ?? {}) as Record<string, unknown>,
        bodyFields: bodyFieldsOf(rewritten, operation),
      })
    }
  }

  function documentedMethods(path: string): string[] {
    return operations.filter((operation) => operation.path === path).map((o) => o.method)
  }

  function responseOf(operation: DocumentedOperation, status: number): Json | undefined {
    let response = operation.responses[String(status)] ?? operation.responses.default
    if (isRecord(response) && typeof response.$ref === 'string') {
      const name = response.$ref.split('/').pop() ?? ''
      const shared = (rewritten.components?.responses as Json | undefined)?.[name]
      response = isRecord(shared) ? { ...shared, ...response } : response
    }
    return isRecord(response) ? response : undefined
  }

  function validatorFor(operation: DocumentedOperation, status: number, schema: unknown) {
    const key = `${operation.method} ${operation.path} ${status}`
    let validate = validators.get(key)
    if (!validate) {
      validate = ajv.compile(schema as object)
      validators.set(key, validate)
    }
    return validate
  }

  function checkError(where: string, body: unknown): string[] {
    let validate = validators.get('error')
    if (!validate) {
      validate = ajv.compile({ $ref: 'doc#/components/schemas/ApiErrorResponseDto' })
      validators.set('error', validate)
    }
    return validate(body)
      ? []
      : [`${where}: not an ApiErrorResponseDto: ${ajv.errorsText(validate.errors)}`]
  }

  /** Problems of `answer` to `method` on a concrete path of `operation`; `[]` when none. */
  function check(
    operation: DocumentedOperation,
    method: string,
    answer: SandboxResponse,
  ): string[] {
    const where = `${method} ${operation.path} -> ${answer.status}`
    // A gateway's 5xx a fault rule or `Prefer` asked for is marked so; it must be documented.
    if (answer.status >= 500 && answer.headers['x-sandbox-fault'] === undefined) {
      return [`${where}: a server error`]
    }
    const documented = documentedMethods(operation.path)
    const effective = method === 'HEAD' && documented.includes('GET') ? 'GET' : method
    if (!documented.includes(effective)) {
      const allow = new Set(documented)
      if (allow.has('GET')) allow.add('HEAD')
      allow.add('OPTIONS')
      // A malformed session id is refused before routing, on every path.
      const errorBody = (body: unknown) => (method === 'HEAD' ? [] : checkError(where, body))
      if (answer.status === 400) return errorBody(answer.body)
      const problems: string[] = []
      const expected = method === 'OPTIONS' ? 204 : 405
      if (expected === 405) problems.push(...errorBody(answer.body))
      if (answer.status !== expected) problems.push(`${where}: expected ${expected}`)
      const given = new Set((answer.headers.allow ?? '').split(/,\s*/))
      if ([...allow].sort().join() !== [...given].sort().join()) {
        problems.push(`${where}: Allow "${answer.headers.allow}" but documented ${[...allow]}`)
      }
      return problems
    }
    const target =
      effective === operation.method
        ? operation
        : operations.find((o) => o.path === operation.path && o.method === effective)
    if (!target) return [`${where}: no documented operation`]
    const response = responseOf(target, answer.status)
    if (!response) return [`${where}: status not documented for ${target.operationId}`]
    const content = response.content as Json | undefined
    if (answer.body === undefined) {
      if (method !== 'HEAD' && content && Object.keys(content).length > 0) {
        return [`${where}: no body, but the document gives one`]
      }
      return []
    }
    const mediaType = (answer.headers['content-type'] ?? '').split(';')[0]?.trim() ?? ''
    const media = content?.[mediaType]
    if (!isRecord(media)) return [`${where}: ${mediaType} not documented`]
    if (!('schema' in media)) return []
    const validate = validatorFor(target, answer.status, media.schema)
    if (validate(answer.body)) return []
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((error) => `${error.instancePath || '/'} ${error.message}`)
    return [`${where}: body does not match the schema: ${errors.join('; ')}`]
  }

  return { operations, check, documentedMethods }
}
