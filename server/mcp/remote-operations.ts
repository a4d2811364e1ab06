/**
 * @module
 * The operations of your own of a sandbox reached over HTTP (`mcp --url`), read from the document
 * it serves (`GET /__sandbox/openapi.json`, each marked `x-sandbox-proposed`): the same tool per
 * operation as in process, its arguments from the schemas that document gives.
 */
import { z } from 'zod'
import type { Operation } from '../../mocks/core/index.ts'
import type { SandboxBackend } from './backend.ts'

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: JsonSchema
}

interface DocumentOperation {
  operationId: string
  summary?: string
  description?: string
  security?: unknown[]
  'x-sandbox-role'?: string
  'x-sandbox-proposed'?: boolean
  parameters?: Parameter[]
  requestBody?: { content?: { 'application/json'?: { schema?: JsonSchema } } }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0]

/** A schema of the document as zod; one zod cannot read takes anything. */
function schemaOf(schema: JsonSchema | undefined): z.ZodType {
  try {
    return z.fromJSONSchema(schema ?? {})
  } catch {
    return z.unknown()
  }
}

/** A body's other fields dropped, as in process (JSON Schema lets them through). */
const bodyOf = (schema: z.ZodType) =>
  schema instanceof z.ZodObject ? z.object(schema.shape) : schema

/** The parameters `in` that place as an object's shape; those not required are optional. */
function shapeOf(parameters: readonly Parameter[], location: 'path' | 'query') {
  const listed = parameters.filter((p) => p.in === location && p.name !== 'dryRun')
  return Object.fromEntries(
    listed.map((p) => [p.name, p.required ? schemaOf(p.schema) : schemaOf(p.schema).optional()]),
  )
}

/** The operations of your own of a served document, as the tools read an operation. */
export function proposedOperations(document: object): Operation[] {
  const { paths = {} } = document as { paths?: Record<string, Record<string, DocumentOperation>> }
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const declared = item[method]
      if (!declared?.['x-sandbox-proposed']) return []
      const parameters = declared.parameters ?? []
      const query = shapeOf(parameters, 'query')
      const body = declared.requestBody?.content?.['application/json']?.schema
      const operation = {
        id: declared.operationId,
        method: method.toUpperCase(),
        path,
        auth: declared.security?.length === 0 ? 'public' : 'user',
        role: declared['x-sandbox-role'],
        proposed: {
          summary: declared.summary ?? declared.operationId,
          declaration: { description: declared.description },
        },
        dryRun: parameters.some((p) => p.in === 'query' && p.name === 'dryRun'),
        params: z.object(shapeOf(parameters, 'path')),
        body: body === undefined ? undefined : bodyOf(schemaOf(body)),
        query: Object.keys(query).length === 0 ? undefined : z.object(query),
      }
      return [operation as unknown as Operation]
    }),
  )
}

/** Those of the sandbox behind `backend`; `undefined` while none answers there. */
export async function remoteOperations(backend: SandboxBackend): Promise<Operation[] | undefined> {
  const answer = await backend
    .send({ method: 'GET', url: '/__sandbox/openapi.json' })
    .catch(() => undefined)
  if (answer === undefined || answer.status === 0) return undefined
  return answer.status === 200 ? proposedOperations(answer.body as object) : []
}
