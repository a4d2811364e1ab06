/**
 * @module
 * The operations of your own in an OpenAPI document (the merged one served, and so the app
 * document made of it): each a path item marked `x-sandbox-proposed: true` and tagged
 * `Proposed`, its parameters, body and answers from its declared schemas. Loaded on the first
 * `GET /__sandbox/openapi.json` of a sandbox that has some.
 */
import { z } from '../model/zod.ts'
import type { Operation } from './operation.ts'
import type { AnyOperationDeclaration, Responses, Schema } from './user-operation.ts'

const PROPOSED_TAG = 'Proposed'

type Json = Record<string, unknown>

const jsonSchema = (schema: Schema, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json
  return rest
}

const json = (schema: Json, examples: Readonly<Record<string, unknown>> = {}) => {
  const named = Object.entries(examples).map(([name, value]) => [name, { value }])
  return {
    'application/json': {
      schema,
      ...(named.length > 0 && { examples: Object.fromEntries(named) }),
    },
  }
}

/** Parameters of `location` from an object schema's properties. */
function parameters(schema: Schema | undefined, location: 'path' | 'query', names: string[]) {
  const { properties = {}, required = [] } = (schema ? jsonSchema(schema, 'input') : {}) as {
    properties?: Json
    required?: string[]
  }
  return [...new Set([...names, ...Object.keys(properties)])].map((name) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: properties[name] ?? { type: 'string', minLength: 1 },
  }))
}

/** The path item operation of `d`. */
function pathItem(d: AnyOperationDeclaration, operation: Operation): Json {
  const names = (d.path.match(/\{\w+\}/g) ?? []).map((name: string) => name.slice(1, -1))
  const query = parameters(d.query, 'query', [])
  if (operation.dryRun) {
    query.push({ name: 'dryRun', in: 'query', required: false, schema: { type: 'boolean' } })
  }
  const responses: Json = {}
  for (const [status, response] of Object.entries(d.responses as Responses)) {
    const { schema, examples, description } = response
    responses[status] = {
      description: description ?? (Number(status) < 300 ? d.summary : `Refused (${status})`),
      ...(schema
        ? { content: json(jsonSchema(schema, 'output'), examples) }
        : Number(status) >= 400
          ? { content: json({ $ref: '#/components/schemas/ApiErrorResponseDto' }) }
          : {}),
    }
  }
  return {
    tags: [PROPOSED_TAG],
    operationId: d.id,
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    'x-sandbox-proposed': true,
    security: d.auth === 'public' ? [] : [{ bearerAuth: [] }],
    ...(typeof d.auth === 'object' ? { 'x-sandbox-role': d.auth.role } : {}),
    parameters: [...parameters(d.params, 'path', names), ...query],
    ...(d.body
      ? { requestBody: { required: true, content: json(jsonSchema(d.body, 'input')) } }
      : {}),
    responses,
  }
}

/** `document` with the operations of your own among `operations` added (a copy). */
export function proposedDocument<D extends { paths: Json }>(
  document: D,
  operations: readonly Operation[],
): D {
  const copy = structuredClone(document) as D & { tags?: Json[] }
  for (const operation of operations) {
    if (!operation.proposed) continue
    const d = operation.proposed.declaration as AnyOperationDeclaration
    copy.paths[d.path] = {
      ...(copy.paths[d.path] as Json),
      [d.method.toLowerCase()]: pathItem(d, operation),
    }
  }
  copy.tags = [
    ...(copy.tags ?? []).filter((tag) => tag.name !== PROPOSED_TAG),
    {
      name: PROPOSED_TAG,
      description:
        'Operations of your own, proposed to the backend: served by the sandbox, not by the published contract.',
    },
  ]
  return copy
}
