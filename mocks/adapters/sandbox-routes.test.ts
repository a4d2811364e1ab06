import { describe, expect, it } from 'vitest'
import { SESSION_HEADER } from '../sandbox-client/sandbox-client.ts'
import { joinCookies, readSandboxRequest } from './sandbox-routes.ts'

describe('joinCookies', () => {
  it('joins headers and cookie objects, the first source winning on a name', () => {
    const joined = joinCookies('a=1; b=2', undefined, { b: 'object', c: 'x y' }, 'a=late; d=4')
    expect(joined.header).toBe('a=1; b=2; c=x%20y; d=4')
    expect(joined.cookies).toEqual({ a: '1', b: '2', c: 'x y', d: '4' })
  })

  it('gives nothing when there are no cookies', () => {
    expect(joinCookies(undefined, {}, '').header).toBeUndefined()
    expect(joinCookies(undefined, {}, '').cookies).toEqual({})
  })
})

describe('readSandboxRequest', () => {
  it('keeps the path after the base prefix, the query, lower-case headers, the URL as Host and the body', async () => {
    const request = new Request('http://api.test/v1/bookings/b1/decline?dryRun=true', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Session': 's1' },
      body: '{}',
    })
    expect(await readSandboxRequest(request, '/v1'.length)).toEqual({
      method: 'POST',
      url: '/bookings/b1/decline?dryRun=true',
      headers: { 'content-type': 'application/json', [SESSION_HEADER]: 's1', host: 'api.test' },
      body: '{}',
    })
  })

  it('reads no body for GET', async () => {
    const request = new Request('http://api.test/payprov/account-status')
    expect((await readSandboxRequest(request, 0)).body).toBeNull()
  })
})
