import { en, Faker } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import { personas } from '../../fixtures/personas.ts'
import { operations } from '../operations/table.ts'
import { createSandbox } from '../sandbox.ts'

const errorCodes = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
]

describe('robustness', () => {
  it('answers 2,000 seeded random requests with a contract status and body, never a 500', async () => {
    const faker = new Faker({ locale: [en], seed: 42 })
    const sandbox = createSandbox()
    const refresh = await sandbox.handle({
      method: 'POST',
      url: '/auth/refresh',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: personas[0]!.refreshToken }),
    })
    const adminToken = (refresh.body as { accessToken: string }).accessToken
    const segments = [
      '%',
      '%E0%A4%A',
      '..',
      '',
      'a'.repeat(300),
      '🙂',
      '%00',
      ...['usr_guest', 'ven_unclaimed', 'ven_pending_review', 'applicant%40sandbox.test'],
      ...['bkg_pending', 'ctr_unsigned', 'ctr_signed_by_host', 'ntf_host_archived'],
    ]
    const pick = <T>(often: T, rest: T[]): T =>
      faker.datatype.boolean(0.7) ? often : faker.helpers.arrayElement(rest)
    const bodies = [
      undefined,
      '',
      '{',
      '[]',
      'null',
      '"text"',
      '{"status":"approved"}',
      '{"fullName":""}',
      '{"bookingId":42}',
      '{"__proto__":{"admin":true}}',
      '{}',
      '{}',
      '{}',
      `{"reason":"${'x'.repeat(2000)}"}`,
    ]
    const statuses = new Map<number, number>()
    for (let i = 0; i < 2000; i++) {
      const operation = faker.helpers.arrayElement(operations)
      const path = operation.path.replace(/\{\w+\}/g, () => faker.helpers.arrayElement(segments))
      const query = faker.helpers.arrayElement([
        '',
        '?dryRun=true',
        '?dryRun=',
        '?dryRun=false&dryRun=true',
        '?%',
      ])
      const response = await sandbox.handle({
        method: pick(operation.method, ['POST', 'GET', 'DELETE']),
        url: path + query,
        headers: {
          'content-type': pick('application/json', [
            'text/plain',
            'application/json; charset=utf-8',
          ]),
          authorization: faker.helpers.arrayElement([
            `Bearer ${adminToken}`,
            'Bearer x.y.z',
            undefined,
          ]),
          cookie: faker.helpers.arrayElement(['refresh_token=%', 'sandbox_session=ok', undefined]),
        },
        body: faker.helpers.arrayElement(bodies),
      })
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      expect(response.status).not.toBe(500)
      if (response.status >= 400) {
        expect(errorCodes).toContain((response.body as { code: string }).code)
        expect(typeof (response.body as { message: string }).message).toBe('string')
      }
    }
    // The mix reaches successes as well as refusals, so the loop exercises the operations.
    expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0)
    expect(statuses.get(400)).toBeGreaterThan(0)
  })
})
