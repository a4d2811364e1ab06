import { describe, expect, it } from 'vitest'
import { shapeDifferences } from './diff.ts'

describe('shapeDifferences', () => {
  it('names the fields only one side has', () => {
    expect(shapeDifferences({ a: 1 }, { b: 1 })).toEqual([
      'body.a only in the sandbox',
      'body.b only at the target',
    ])
  })

  it('takes a field named like what every object has for a field like any other', () => {
    expect(shapeDifferences({ constructor: 1, toString: 'x' }, { valueOf: true })).toEqual([
      'body.constructor only in the sandbox',
      'body.toString only in the sandbox',
      'body.valueOf only at the target',
    ])
  })
})
