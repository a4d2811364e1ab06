/**
 * @module
 * The sandbox's one paging convention: `limit` and an opaque `cursor` in; `items`, `next` (the
 * cursor of the next page, `null` after the last) and `total` out. `where` keeps the records
 * whose fields equal its values and `fields` keeps those fields of each; a field the records do
 * not have is refused, naming the ones they have.
 */
import { badRequest } from './errors.ts'

export const DEFAULT_PAGE_LIMIT = 20
export const MAX_PAGE_LIMIT = 200

export interface PageQuery {
  /** How many records at most; `Infinity` for every one. */
  limit: number
  cursor?: string | undefined
  fields?: readonly string[] | undefined
  where?: Readonly<Record<string, unknown>> | undefined
}

export interface Page<Item> {
  items: Item[]
  next: string | null
  total: number
}

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

/** The page of `records` that `query` asks for; `known` are the fields a record may have. */
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
 * What a control call's `?limit=&cursor=&fields=&where=` asks for (its schema checked): a page;
 * without `limit` or `cursor`, every record (filtered) as an array, as the devtools read it.
 */
export function answerPage(
  records: readonly object[],
  query: URLSearchParams,
  known: readonly string[],
): Page<object> | object[] {
  const [limit, cursor, fields, where] = ['limit', 'cursor', 'fields', 'where'].map(
    (name) => query.get(name) ?? undefined,
  )
  const paged = limit !== undefined || cursor !== undefined
  const asked: PageQuery = {
    limit: Number(limit ?? (paged ? DEFAULT_PAGE_LIMIT : Infinity)),
    cursor,
    fields: fields?.split(','),
    where: where === undefined ? undefined : JSON.parse(where),
  }
  const page = pageOf(records, asked, known)
  return paged ? page : page.items
}
