import { describe, expect, it } from 'vitest'
import { describeViolations, readVerdict } from './verdict.ts'

describe('readVerdict', () => {
  it('reads the violations of a forwarded answer from the sl-violations header', () => {
    const headers = new Headers({
      'content-type': 'application/json',
      'sl-violations': JSON.stringify([
        {
          location: ['response'],
          severity: 'Warning',
          message:
            'Unable to match the returned status code with those defined in the document: 201',
        },
      ]),
    })

    const verdict = readVerdict({ headers, body: { message: 'Not found' } })

    expect(verdict.answeredByPrism).toBe(false)
    expect(describeViolations(verdict.violations)).toBe(
      'response: Unable to match the returned status code with those defined in the document: 201 (warning)',
    )
  })

  it('reads the violations of an answer Prism made itself, without repeating the header', () => {
    const violation = {
      location: ['response', 'body', 'payouts_enabled'],
      severity: 'Error',
      code: 'type',
      message: 'Response body property payouts_enabled must be boolean',
    }
    const headers = new Headers({
      'content-type': 'application/problem+json',
      'sl-violations': JSON.stringify([violation]),
    })

    const verdict = readVerdict({
      headers,
      body: {
        type: 'https://stoplight.io/prism/errors#VIOLATIONS',
        title: 'Request/Response not valid',
        status: 500,
        validation: [violation],
      },
    })

    expect(verdict).toMatchObject({ answeredByPrism: true, problem: 'VIOLATIONS' })
    expect(describeViolations(verdict.violations)).toBe(
      'response.body.payouts_enabled: Response body property payouts_enabled must be boolean',
    )
  })

  it('keeps a header Prism truncated', () => {
    const headers = new Headers({ 'sl-violations': 'Too many violations! [{"location":["resp' })

    expect(readVerdict({ headers, body: undefined }).violations).toEqual([
      { location: '', message: 'Too many violations! [{"location":["resp', severity: 'Error' },
    ])
  })
})
