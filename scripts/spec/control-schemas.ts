/**
 * @module
 * The control API's rules in the merged document, generated from the zod schemas its handlers
 * check with, so that the document refuses what the sandbox refuses; the overlay keeps the words.
 */
import { z } from 'zod'
import { personas } from '../../fixtures/personas.ts'
import { scenarioNames } from '../../fixtures/scenarios.ts'
import type { Operation } from '../../mocks/core/index.ts'
import {
  clockBodySchema,
  controlRoutes,
  exampleNames,
  faultRuleSchema,
  faultStatuses,
  MAX_DELAY_MS,
  resetBodySchema,
  retryAfterStatuses,
  SESSION_ID,
  saveSnapshotBodySchema,
} from '../../mocks/core/index.ts'
import { collectionNames } from '../../mocks/model/schemas.ts'
import { operations } from '../../mocks/operations/table.ts'
import { scenarioFileSchema } from '../../mocks/scenarios/compile-scenarios.ts'
import { serverRoutes } from '../../server/control-routes.ts'
import { isRecord } from '../../spec/app-document.ts'

type Json = Record<string, unknown>

/** String formats a JSON Schema validator knows; zod's own (`starts_with`...) are dropped. */
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid'])

/** The JSON Schema of a zod schema as a request sees it, without zod's own vocabulary. */
function jsonSchemaOf(schema: z.core.$ZodType): Json {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override({ jsonSchema }) {
      const node = jsonSchema as Json
      if (typeof node.format === 'string' && !STANDARD_FORMATS.has(node.format)) delete node.format
      if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum
      if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum
      if (isRecord(node.propertyNames) && node.propertyNames.type === 'string') {
        if (Object.keys(node.propertyNames).length === 1) delete node.propertyNames
      }
    },
  }) as Json
  delete generated.$schema
  return generated
}

/** Words the overlay writes for people; everything else is a rule, and comes from the code. */
const WORDS = ['title', 'description', 'default', 'examples', 'example'] as const

/** `rules`, with the words of `written` (the overlay's schema of the same thing) kept. */
function withWords(rules: Json, written: unknown): Json {
  const merged: Json = { ...rules }
  if (!isRecord(written)) return merged
  for (const word of WORDS) if (written[word] !== undefined) merged[word] = written[word]
  if (isRecord(rules.properties)) {
    const properties = isRecord(written.properties) ? written.properties : {}
    merged.properties = Object.fromEntries(
      Object.entries(rules.properties).map(([name, rule]) => [
        name,
        withWords(rule as Json, properties[name]),
      ]),
    )
  }
  return merged
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A case-insensitive pattern of an HTTP method, or `*`. */
function methodPattern(method: string): string {
  const letters = [...method].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('')
  return `^(\\*|${letters})$`
}

/**
 * The fault-rule path patterns that cover `operation` (see `fault-rules.ts`): each literal
 * segment of its template, `*`, `:name` or `{name}`; any segment where it has a parameter.
 */
function pathPattern(operation: Operation): string {
  const segments = operation.path
    .split('/')
    .slice(1)
    .map((part) =>
      part.startsWith('{') ? '[^/]*' : `(${escapeRegExp(part)}|\\*|:\\w+|\\{\\w+\\})`,
    )
  return `^/${segments.join('/')}/?$`
}

/** The rule object matches `operation` (its method, or none, and its path). */
function covers(operation: Operation): Json {
  return {
    required: ['path'],
    properties: {
      method: { pattern: methodPattern(operation.method) },
      path: { pattern: pathPattern(operation) },
    },
  }
}

/**
 * The fault rule's schema with the rules the sandbox checks once it knows its operations and
 * personas: the pattern matches an operation, one answer (or a delay alone), `times` or
 * `probability`, `message` and `details` with a status, `retryAfterSeconds` with a 429 or 503,
 * a persona's key, a recorded example of every operation the pattern covers.
 */
function faultRuleRequestSchema(): Json {
  const base = jsonSchemaOf(faultRuleSchema)
  const properties = base.properties as Record<string, Json>
  properties.status = { ...properties.status, enum: [...faultStatuses] }
  properties.persona = { type: 'string', enum: personas.map((persona) => persona.key) }
  const answers = ['status', 'example', 'networkError'] as const
  return {
    ...base,
    description: `The sandbox also refuses a delayMs plus jitterMs above ${MAX_DELAY_MS}.`,
    dependentRequired: { message: ['status'], details: ['status'] },
    dependentSchemas: {
      retryAfterSeconds: {
        required: ['status'],
        properties: { status: { enum: [...retryAfterStatuses] } },
      },
    },
    allOf: [
      { anyOf: operations.map(covers) },
      { anyOf: [...answers, 'delayMs', 'jitterMs'].map((name) => ({ required: [name] })) },
      {
        not: {
          anyOf: answers.flatMap((one, i) =>
            answers.slice(i + 1).map((other) => ({ required: [one, other] })),
          ),
        },
      },
      { not: { required: ['times', 'probability'] } },
      ...operations.map((operation) => {
        const names = exampleNames(operation)
        // If the pattern covers the operation, the example is one of its own.
        return {
          anyOf: [
            { not: covers(operation) },
            { properties: { example: names.length > 0 ? { enum: names } : false } },
          ],
        }
      }),
    ],
  }
}

/**
 * The scenario file's envelope, with the collections its parts may name; its name is not a
 * built-in scenario's (a file may replace only a file added before).
 */
function scenarioFileRequestSchema(): Json {
  const base = jsonSchemaOf(scenarioFileSchema)
  const properties = base.properties as Record<string, Json>
  properties.name = { ...properties.name, not: { enum: [...scenarioNames] } }
  for (const part of ['add', 'change', 'remove']) {
    properties[part] = { ...properties[part], propertyNames: { enum: [...collectionNames] } }
  }
  return base
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: unknown
}

/**
 * Writes the control API's rules into `document`: its body schemas, the schema of every path
 * and query parameter a control route checks, the session header's, and the collection names.
 * Throws when the document does not declare a parameter a route checks.
 */
export function withControlSchemas<Document extends { paths: Json; components?: Json }>(
  document: Document,
): Document {
  const components = (document.components ?? {}) as Record<string, Json>
  const schemas = (components.schemas ?? {}) as Json
  const bodies = {
    SandboxResetRequest: jsonSchemaOf(resetBodySchema),
    SandboxClockRequest: jsonSchemaOf(clockBodySchema),
    SandboxSnapshotRequest: jsonSchemaOf(saveSnapshotBodySchema),
    SandboxFaultRuleRequest: faultRuleRequestSchema(),
    SandboxScenarioFile: scenarioFileRequestSchema(),
  }
  for (const [name, rules] of Object.entries(bodies)) {
    const written = name === 'SandboxFaultRuleRequest' ? schemas.SandboxFaultRule : schemas[name]
    const merged = withWords(rules, written)
    if (name === 'SandboxFaultRuleRequest' && typeof rules.description === 'string') {
      merged.description = [(written as Json | undefined)?.description, rules.description]
        .filter(Boolean)
        .join(' ')
    }
    schemas[name] = merged
  }
  for (const route of [...controlRoutes, ...serverRoutes]) {
    const operation = (document.paths[route.path] as Json | undefined)?.[
      route.method.toLowerCase()
    ] as { parameters?: Parameter[] } | undefined
    if (!operation) continue
    for (const [where, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue
      for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        const parameter = operation.parameters?.find(
          (candidate) => candidate.name === name && candidate.in === where,
        )
        if (!parameter) {
          throw new Error(
            `Failed to write the control schemas: ${route.method} ${route.path} checks the ${where} parameter "${name}", which the overlay does not declare`,
          )
        }
        parameter.schema = withWords(jsonSchemaOf(field), parameter.schema)
        parameter.required = where === 'path' || !field.safeParse(undefined).success
      }
    }
  }
  const session = (components.parameters as Record<string, Parameter> | undefined)?.SandboxSession
  if (session) {
    // Empty means "not named" (the default session); anything else is a session id.
    session.schema = withWords(
      { type: 'string', pattern: SESSION_ID.source.replace('{1,64}', '{0,64}') },
      session.schema,
    )
  }
  const collection = (
    (document.paths['/__sandbox/collections/{name}'] as Json | undefined)?.get as
      | { parameters?: Parameter[] }
      | undefined
  )?.parameters?.find((parameter) => parameter.name === 'name')
  if (collection) {
    collection.schema = { ...(collection.schema as Json), enum: [...collectionNames] }
  }
  return document
}
