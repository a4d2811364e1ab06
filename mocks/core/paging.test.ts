import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { createSandbox } from '../sandbox.ts'
import { DEFAULT_PAGE_LIMIT } from './paging.ts'

const sandbox = createSandbox()

async function read(query: string) {
  const answer = await sandbox.handle({
    method: 'GET',
    url: `/__sandbox/collections/bookings${query}`,
    headers: { 'x-sandbox-session': 'paging' },
  })
  return answer as { status: number; body: any }
}

describe('GET /__sandbox/collections/{name} with ?limit=: one page', () => {
  it('answers every record as an array without limit, as before', async () => {
    const store = await sandbox.store('paging')
    const all = await read('')
    expect(all.status).toBe(200)
    expect(all.body).toEqual(store.bookings.all())
  })

  it('walks the whole collection in pages of `limit`, each `next` the cursor of the following', async () => {
    const store = await sandbox.store('paging')
    const total = store.bookings.count()
    const seen: string[] = []
    let query = '?limit=7'
    for (;;) {
      const page = await read(query)
      expect(page.status).toBe(200)
      expect(page.body.total).toBe(total)
      expect(page.body.items.length).toBeLessThanOrEqual(7)
      seen.push(...page.body.items.map((booking: { id: string }) => booking.id))
      if (page.body.next === null) break
      expect(page.body.next).toMatch(/^[A-Za-z0-9_-]+$/)
      query = `?limit=7&cursor=${page.body.next}`
    }
    expect(seen).toEqual(store.bookings.all().map((booking) => booking.id))
  })

  it('answers a page of the default limit to a cursor alone', async () => {
    const first = await read('?limit=1')
    const page = await read(`?cursor=${first.body.next}`)
    expect(page.body.items).toHaveLength(DEFAULT_PAGE_LIMIT)
  })

  it('filters with `where` and keeps only the `fields` asked for', async () => {
    const where = encodeURIComponent(JSON.stringify({ id: anchors.bookings.pending }))
    const page = await read(`?limit=5&fields=id,status&where=${where}`)
    expect(page.body).toEqual({
      items: [{ id: anchors.bookings.pending, status: 'pending' }],
      next: null,
      total: 1,
    })
  })

  it('refuses a field the collection does not have, naming the fields it has', async () => {
    const where = encodeURIComponent(JSON.stringify({ colour: 'red' }))
    for (const query of [`?limit=5&where=${where}`, '?fields=id,colour']) {
      const refused = await read(query)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/Unknown field in (where|fields): colour/)
      expect(refused.body.details[0]).toMatch(/may name only: id, listingId, guestId, hostId/)
    }
  })

  it('refuses a cursor it did not give, a limit past 200 and a where that is not an object', async () => {
    const refusals = {
      '?limit=5&cursor=abc': 'cursor must be the `next` of a page the sandbox answered',
      '?limit=201': 'limit must be from 1 to 200',
      '?limit=0': 'limit must be from 1 to 200',
      '?where=%5B1%5D': 'where: must be a JSON object of fields and values',
    }
    for (const [query, detail] of Object.entries(refusals)) {
      const refused = await read(query)
      expect(refused.status, query).toBe(400)
      expect(refused.body.details[0], query).toContain(detail)
    }
  })
})
