import { describe, expect, it } from 'vitest'
import { createBaseCollection, Table } from './table.ts'
import { z } from './zod.ts'

const schema = z.object({ id: z.string(), count: z.number(), tags: z.array(z.string()) })
type Row = z.infer<typeof schema>

async function createTable() {
  const base = await createBaseCollection<Row>(schema, 'id', [
    { id: 'a', count: 1, tags: ['x'] },
    { id: 'b', count: 2, tags: [] },
  ])
  return { base, table: new Table<Row>('rows', 'id', schema, base) }
}

describe('Table', () => {
  it('reads the base until the session writes', async () => {
    const { table } = await createTable()
    expect(table.get('a')).toEqual({ id: 'a', count: 1, tags: ['x'] })
    expect(table.count()).toBe(2)
    expect(table.writeCount).toBe(0)
  })

  it('updates a copy and never the shared base', async () => {
    const { base, table } = await createTable()
    const other = new Table<Row>('rows', 'id', schema, base)
    await table.update('a', (draft) => {
      draft.count = 10
      draft.tags.push('y')
    })
    expect(table.get('a')).toEqual({ id: 'a', count: 10, tags: ['x', 'y'] })
    expect(other.get('a')).toEqual({ id: 'a', count: 1, tags: ['x'] })
    expect(base.byKey.get('a')).toEqual({ id: 'a', count: 1, tags: ['x'] })
    expect(table.writeCount).toBe(1)
  })

  it('updates a record twice, each time a validated copy', async () => {
    const { table } = await createTable()
    await table.update('b', (draft) => {
      draft.count = 3
    })
    await table.update('b', (draft) => {
      draft.count += 1
    })
    expect(table.get('b')?.count).toBe(4)
    expect(table.writeCount).toBe(1)
    await expect(
      table.update('b', (draft) => {
        draft.count = 'many' as never
      }),
    ).rejects.toThrow('Failed to write to "rows": the record does not match the schema (count: ')
    expect(table.get('b')?.count).toBe(4)
  })

  it('freezes base records so a stray mutation throws', async () => {
    const { table } = await createTable()
    const record = table.get('a') as Row
    expect(() => {
      record.count = 5
    }).toThrow(TypeError)
  })

  it('inserts, lists in order, and deletes', async () => {
    const { table } = await createTable()
    await table.insert({ id: 'c', count: 3, tags: [] })
    expect(table.all().map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(table.delete('a')).toBe(true)
    expect(table.all().map((r) => r.id)).toEqual(['b', 'c'])
    expect(table.count()).toBe(2)
    expect(table.get('a')).toBeUndefined()
  })

  it('rejects a record the schema does not accept, naming the field', async () => {
    const { table } = await createTable()
    await expect(table.insert({ id: 'd', count: 'many' } as never)).rejects.toThrow(
      'Failed to write to "rows": the record does not match the schema (count: ',
    )
    expect(table.has('d')).toBe(false)
  })

  it('keeps its own frozen copy of a written record, without the fields the schema does not name', async () => {
    const { table } = await createTable()
    const values = { id: 'd', count: 4, tags: ['x'], extra: true }
    const inserted = await table.insert(values)
    values.tags.push('y')
    expect(table.get('d')).toEqual({ id: 'd', count: 4, tags: ['x'] })
    expect(table.get('d')).toBe(inserted)
    expect(Object.isFrozen(inserted) && Object.isFrozen(inserted.tags)).toBe(true)
    const updated = await table.update('d', (draft) => {
      draft.tags.push('z')
    })
    expect(Object.isFrozen(updated.tags)).toBe(true)
    expect(inserted.tags).toEqual(['x'])
  })

  it('gives what the session sees as a new @msw/data collection', async () => {
    const { table } = await createTable()
    await table.insert({ id: 'c', count: 3, tags: [] })
    await table.update('a', (draft) => {
      draft.count = 9
    })
    table.delete('b')
    const collection = await table.toCollection()
    expect(collection.findMany().map((record) => ({ ...record }))).toEqual(table.all())
    expect(collection.findFirst((q) => q.where({ count: 9 } as never))?.id).toBe('a')
    await table.insert({ id: 'e', count: 5, tags: [] })
    expect(collection.count()).toBe(2)
  })

  it('refuses a duplicate key', async () => {
    const { table } = await createTable()
    await expect(table.insert({ id: 'a', count: 0, tags: [] })).rejects.toThrow(/already exists/)
  })

  it('keeps a record already parsed as it is, frozen, still refusing a duplicate key', async () => {
    const { table } = await createTable()
    const record = schema.parse({ id: 'p', count: 4, tags: ['t'] })
    const kept = table.addParsed(record)
    expect(kept).toBe(record)
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.tags)).toBe(true)
    expect(table.get('p')).toEqual({ id: 'p', count: 4, tags: ['t'] })
    expect(table.count()).toBe(3)
    expect(() => table.addParsed({ id: 'b', count: 0, tags: [] })).toThrow(/already exists/)
    expect(table.get('b')).toEqual({ id: 'b', count: 2, tags: [] })
  })
})

describe('createBaseCollection', () => {
  it('parses every record: a record the schema refuses fails, naming the field', async () => {
    await expect(
      createBaseCollection<Row>(schema, 'id', [{ id: 'a', count: 'one' as never, tags: [] }]),
    ).rejects.toThrow(/does not match the schema \(count: /)
  })

  it('keeps the parsed copy, without the fields the schema does not name', async () => {
    const values = { id: 'a', count: 1, tags: [], extra: true }
    const base = await createBaseCollection<Row>(schema, 'id', [values])
    expect(base.byKey.get('a')).toEqual({ id: 'a', count: 1, tags: [] })
    expect(base.byKey.get('a')).not.toBe(values)
  })

  it('takes records marked as checked as they are, frozen, still refusing a duplicate key', async () => {
    const values = { id: 'a', count: 1, tags: ['x'] }
    const base = await createBaseCollection<Row>(schema, 'id', [values], { checked: true })
    expect(base.byKey.get('a')).toBe(values)
    expect(Object.isFrozen(values.tags)).toBe(true)
    await expect(
      createBaseCollection<Row>(schema, 'id', [values, { ...values }], { checked: true }),
    ).rejects.toThrow('duplicate key "a"')
  })
})
