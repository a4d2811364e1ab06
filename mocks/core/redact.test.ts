import { describe, expect, it } from 'vitest'
import { createSandbox } from '../sandbox.ts'
import { REDACTED_IN_JOURNAL, redactQuery } from './journal.ts'

describe('the request journal', () => {
  it('stores token-like query parameters redacted, others as sent', async () => {
    const sandbox = createSandbox()
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfaG9zdCJ9.c2ln'
    await sandbox.handle({
      method: 'GET',
      url: `/payprov/account-status?access_token=${jwt}&token=t&refresh_token=r&id_token=i&api_key=k&client_secret=s&password=p&code=c&page=2`,
      headers: {},
    })
    const entry = sandbox.journal.list().at(-1)
    expect(entry?.query).toEqual({
      access_token: REDACTED_IN_JOURNAL,
      token: REDACTED_IN_JOURNAL,
      refresh_token: REDACTED_IN_JOURNAL,
      id_token: REDACTED_IN_JOURNAL,
      api_key: REDACTED_IN_JOURNAL,
      client_secret: REDACTED_IN_JOURNAL,
      password: REDACTED_IN_JOURNAL,
      code: REDACTED_IN_JOURNAL,
      page: '2',
    })
    expect(JSON.stringify(sandbox.journal.list())).not.toContain(jwt)
  })

  it('redacts on unknown routes too', async () => {
    const sandbox = createSandbox()
    await sandbox.handle({ method: 'GET', url: '/nowhere?accessToken=abc', headers: {} })
    expect(sandbox.journal.list().at(-1)?.query).toEqual({ accessToken: REDACTED_IN_JOURNAL })
  })
})

describe('redactQuery', () => {
  it('keeps dryRun and ordinary parameters', () => {
    expect(redactQuery(new URLSearchParams('dryRun=true&session=qa-1'))).toEqual({
      dryRun: 'true',
      session: 'qa-1',
    })
  })
  it('keeps a parameter of any name, the last value of a repeated one', () => {
    const query = redactQuery(new URLSearchParams('__proto__=a&toString=b&page=1&page=2'))
    expect(Object.entries(query)).toEqual([
      ['__proto__', 'a'],
      ['toString', 'b'],
      ['page', '2'],
    ])
  })
})
