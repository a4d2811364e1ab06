/**
 * @module
 * The sandbox's one paging convention: `limit` and an opaque `cursor` in; `items`, `next` (the
 * cursor of the next page, `null` after the last) and `total` out. `where` keeps the records
 * whose fields equal its values, `fields` those fields of each; a field the records do not have
 * is refused, naming those they have.
 */
import { z } from '../model/zod.ts'
import { badRequest } from './errors.ts'

export const DEFAULT_PAGE_LIMIT = 20
export const MAX_PAGE_LIMIT = 200

/** What a page is asked for with; a `limit` of `Infinity` asks for every record. */
export interface PageQuery {
  limit: number
  cursor?: string | undefined
  fields?: readonly string[] | undefined
  where?: object | undefined
}

export interface Page<Item> {
  items: Item[]
  next: string | null
  total: number
}

const whereSchema = z.record(z.string(), z.nullable(z.union([z.string(), z.number(), z.boolean()])))

function isWhere(text: string): boolean {
  try {
    return whereSchema.safeParse(JSON.parse(text)).success
  } catch {
    return false
  }
}

const FROM_1_TO_200 = `must be from 1 to ${MAX_PAGE_LIMIT}`

/** `?limit=&cursor=&fields=&where=` of a route that pages. */
export const pageQuerySchema = z.object({
  limit: z.optional(z.string().check(z.regex(/^([1-9]\d?|1\d\d|200)$/, FROM_1_TO_200))),
  cursor: z.optional(z.string()),
  fields: z.optional(z.string().check(z.regex(/^\w+(,\w+)*$/, 'must be field names and commas'))),
  where: z.optional(
    z.string().check(z.refine(isWhere, 'must be a JSON object of fields and values')),
  ),
})

/** `limit` as an integer from 1 to 200 (so in the documents), a query string's digits read as one. */
export const pageLimit = z.pipe(
  z.transform((value: unknown) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  ),
  z.int(FROM_1_TO_200).check(z.gte(1, FROM_1_TO_200), z.lte(MAX_PAGE_LIMIT, FROM_1_TO_200)),
)

/** Opaque: base64url of the offset of the page, so that no client builds one. */
const encodeCursor = (offset: number) => btoa(`o:${offset}`).replace(/=/g, '')

function offsetOf(cursor: string): number {
  let text = ''
  try {
    text = atob(cursor)
  } catch {}
  const offset = Number(/^o:(\d{1,9})$/.exec(text)?.[1] ?? -1)
  if (offset < 0 || encodeCursor(offset) !== cursor) {
    throw badRequest('Invalid cursor', [
      'cursor must be the `next` of a page the sandbox answered; leave it out for the first page',
    ])
  }
  return offset
}

/** The page of `records` that `query` asks for; `known`: the fields a record may have. */
export function pageOf<Item extends object>(
  records: readonly Item[],
  query: PageQuery,
  known: readonly string[],
): Page<Partial<Item>> {
  const where = Object.entries(query.where ?? {})
  const asked = { where: where.map(([field]) => field), fields: query.fields ?? [] }
  for (const [parameter, given] of Object.entries(asked)) {
    const unknown = given.filter((field) => !known.includes(field))
    if (unknown.length > 0) {
      throw badRequest(`Unknown field in ${parameter}: ${unknown.join(', ')}`, [
        `${parameter} may name only: ${known.join(', ')}`,
      ])
    }
  }
  const start = query.cursor === undefined ? 0 : offsetOf(query.cursor)
  const rows = records as readonly Record<string, unknown>[]
  const found = rows.filter((row) => where.every(([field, value]) => row[field] === value))
  const end = Math.min(start + query.limit, found.length)
  const { fields } = query
  const items = found
    .slice(start, end)
    .map((row) => (fields ? Object.fromEntries(fields.map((field) => [field, row[field]])) : row))
  const next = end < found.length ? encodeCursor(end) : null
  return { items: items as Partial<Item>[], next, total: found.length }
}

/**
 * The answer to `query` (checked by `pageQuerySchema`): a page, or without `limit` or `cursor`
 * every record (narrowed) as an array, as the devtools read a collection.
 */
export function answerPage(records: readonly object[], query: URLSearchParams, known: string[]) {
  const [limit, cursor, fields, where] = ['limit', 'cursor', 'fields', 'where'].map(
    (name) => query.get(name) ?? undefined,
  )
  const paged = limit !== undefined || cursor !== undefined
  const asked = { limit: Number(limit ?? (paged ? DEFAULT_PAGE_LIMIT : Infinity)), cursor }
  const narrowed = {
    fields: fields?.split(','),
    where: where ? (JSON.parse(where) as object) : undefined,
  }
  const page = pageOf(records, { ...asked, ...narrowed }, known)
  return paged ? page : page.items
}
