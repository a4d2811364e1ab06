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

describe('the 400 details state every rule in the sandbox words, never zod default wording', () => {
  it.each([
    {
      detail: 'path must start with "/"',
      schema: z.strictObject({ path: z.string().startsWith('/') }),
      value: { path: 'auth' },
    },
    {
      detail: 'file must end with ".json"',
      schema: z.strictObject({ file: z.string().endsWith('.json') }),
      value: { file: 'a.yaml' },
    },
    {
      detail: 'text must contain "@"',
      schema: z.strictObject({ text: z.string().includes('@') }),
      value: { text: 'a' },
    },
    {
      detail: 'code must match the pattern /^[a-z]+$/',
      schema: z.strictObject({ code: z.string().regex(/^[a-z]+$/) }),
      value: { code: 'A1' },
    },
    {
      detail: 'code must be lower-case letters',
      schema: z.strictObject({ code: z.string().regex(/^[a-z]+$/, 'must be lower-case letters') }),
      value: { code: 'A1' },
    },
    {
      detail: 'id must be a valid UUID',
      schema: z.strictObject({ id: z.uuid() }),
      value: { id: 'x' },
    },
    {
      detail: 'name must be longer than or equal to 3 characters',
      schema: z.strictObject({ name: z.string().min(3) }),
      value: { name: 'ab' },
    },
    {
      detail: 'tags must contain at least 1 elements',
      schema: z.strictObject({ tags: z.array(z.string()).min(1) }),
      value: { tags: [] },
    },
    {
      detail: 'tags must contain no more than 1 elements',
      schema: z.strictObject({ tags: z.array(z.string()).max(1) }),
      value: { tags: ['a', 'b'] },
    },
    {
      detail: 'step must be a multiple of 5',
      schema: z.strictObject({ step: z.number().multipleOf(5) }),
      value: { step: 7 },
    },
    {
      detail: 'value does not match any of the allowed forms',
      schema: z.strictObject({ value: z.union([z.string(), z.number()]) }),
      value: { value: true },
    },
    {
      detail: 'body: give one of a, b',
      schema: z
        .strictObject({ a: z.string().optional(), b: z.string().optional() })
        .refine((body) => body.a !== undefined || body.b !== undefined, {
          message: 'give one of a, b',
        }),
      value: {},
    },
  ])('$detail', ({ detail, schema, value }) => {
    const details = detailsOf(schema, value)
    expect(details).toEqual([detail])
    expect((details ?? []).join('\n')).not.toMatch(
      /Invalid|starts_with|the \w+ format|Too (small|big)/,
    )
  })
})
