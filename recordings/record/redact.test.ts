import { describe, expect, it } from 'vitest'
import { createHarEntry } from '../har.ts'
import { REDACTED, redactEntry } from './redact.ts'

const entryWithBody = (text: string) =>
  createHarEntry({
    method: 'POST',
    url: 'http://localhost/x',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: text,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{}',
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })

describe('redactEntry', () => {
  it('redacts a JSON pointer the body has, and adds none it lacks, even one every object has', () => {
    const entry = entryWithBody('{"user":{"ssn":"123"},"note":"x"}')
    redactEntry(entry, { extra: ['/user/ssn', '/constructor', '/note/toString'] })
    expect(JSON.parse(entry.request.postData!.text!)).toEqual({
      user: { ssn: REDACTED },
      note: 'x',
    })
  })

  it('keeps a field named __proto__ as a field', () => {
    const entry = entryWithBody('{"__proto__":{"token":"secret","a":1},"b":2}')
    redactEntry(entry)
    expect(entry.request.postData!.text).toBe(`{"__proto__":{"token":"${REDACTED}","a":1},"b":2}`)
  })
})
