import { describe, expect, it } from 'vitest'
import { parseCookies } from './http.ts'

describe('parseCookies', () => {
  it('reads every cookie, the first of a name winning, whatever the name', () => {
    expect(parseCookies('a=1; toString=2; a=3; constructor="4"; refresh_token=x%2Ey')).toEqual({
      a: '1',
      toString: '2',
      constructor: '4',
      refresh_token: 'x.y',
    })
  })
})
