/**
 * @module
 * The collections' tools beside `listCollections`: a page of records, and a collection's fields
 * (JSON Schema of its zod schema), read without reading records. A page that `where` leaves empty says which
 * values its fields hold, the answer a guessed value needs.
 */
import { z } from 'zod'
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../mocks/core/index.ts'
import {
  type CollectionName,
  collectionDefinitions,
  collectionNames,
} from '../../mocks/model/schemas.ts'
import {
  controlResult,
  lean,
  type SandboxTool,
  sessionArgument,
  type ToolCall,
  toolResult,
} from './tool.ts'

const collectionName = z.enum(collectionNames).describe('listCollections names them')

/** Each field of a collection as JSON Schema, from the zod schema its records are checked with. */
function fieldsOf(name: CollectionName) {
  const schema = z.toJSONSchema(collectionDefinitions[name].schema as never, { io: 'output' })
  return (lean(schema) as { properties: object }).properties
}

/** The values `where`'s fields hold in `name`, a few of each: what an empty page says. */
async function valuesHeld(call: ToolCall, name: string, fields: string[]) {
  const url = `/__sandbox/collections/${name}?limit=${MAX_PAGE_LIMIT}&fields=${fields.join(',')}`
  const { items = [] } = (await call.send({ method: 'GET', url })).body as { items?: object[] }
  return Object.fromEntries(
    fields.map((field) => {
      const seen = new Set(items.map((item) => (item as Record<string, unknown>)[field]))
      return [field, [...seen].slice(0, 8)]
    }),
  )
}

export const collectionTools: readonly SandboxTool[] = [
  {
    name: 'describeCollection',
    title: 'Describe a collection',
    description: 'A collection’s key, fields and their types, and its record count.',
    effect: 'read',
    input: z.strictObject({ name: collectionName, session: sessionArgument }),
    async run(args, call) {
      const name = args.name as CollectionName
      const counts = await call.send({ method: 'GET', url: '/__sandbox/collections' })
      return controlResult(counts, (body) => ({
        name,
        key: collectionDefinitions[name].key,
        count: (body as Record<string, number>)[name],
        fields: fieldsOf(name),
      }))
    },
  },
  {
    name: 'readCollection',
    title: 'Read a collection',
    description:
      'A page of the session’s records: next is the cursor of the page after (null after the last), total how many match.',
    narrow: 'ask for fewer records (limit), fewer fields (fields) or only some (where)',
    effect: 'read',
    route: { method: 'GET', path: '/__sandbox/collections/{name}' },
    input: z.strictObject({
      name: collectionName,
      limit: z.int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
      cursor: z.string().optional(),
      fields: z.array(z.string()).min(1).optional().describe('Only these: ["id", "status"]'),
      where: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional()
        .describe('Fields equal to: { "status": "pending" }'),
      session: sessionArgument,
    }),
    async run({ name, limit, cursor, fields, where }, call) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (typeof cursor === 'string') query.set('cursor', cursor)
      if (Array.isArray(fields)) query.set('fields', fields.join(','))
      if (where !== undefined) query.set('where', JSON.stringify(where))
      const answer = await call.send({
        method: 'GET',
        url: `/__sandbox/collections/${String(name)}?${query}`,
      })
      const page = answer.body as { total?: number }
      if (answer.status !== 200 || page.total !== 0 || where === undefined) {
        return controlResult(answer)
      }
      const held = await valuesHeld(call, String(name), Object.keys(where as object))
      return toolResult({
        ...page,
        hint: `No record matches where; values its fields hold: ${JSON.stringify(held)}`,
      })
    },
  },
]
