import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseInput } from './validation.ts'

const detailsOf = (schema: z.ZodType, value: unknown) => {
  const parsed = parseInput(schema, value, 'body')
  return parsed.ok ? [] : parsed.error.details
}

describe('the 400 details name the expected type in plain words', () => {
  it.each([
    {
      detail: 'seed must be a number',
      schema: z.strictObject({ seed: z.int() }),
      value: { seed: 'x' },
    },
    {
      detail: 'seed must be an integer',
      schema: z.strictObject({ seed: z.int() }),
      value: { seed: 1.5 },
    },
    {
      detail: 'tags must be an array',
      schema: z.strictObject({ tags: z.array(z.string()) }),
      value: { tags: 'x' },
    },
    {
      detail: 'body must be an object',
      schema: z.strictObject({ body: z.object({}) }),
      value: { body: 1 },
    },
    {
      detail: 'name must be a string',
      schema: z.strictObject({ name: z.string() }),
      value: { name: 1 },
    },
  ])('$detail', ({ detail, schema, value }) => {
    expect(detailsOf(schema, value)).toEqual([detail])
  })
})
