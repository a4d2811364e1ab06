/**
 * @module
 * What the contract fuzz sends beyond well-formed calls: the control API's fields with valid,
 * extreme and near-miss values (huge and negative numbers, long strings, wrong types), `Prefer`
 * headers, malformed session ids on every path, and the findings of earlier runs kept as cases.
 */
import fc from 'fast-check'
import { SESSION_ID } from '../../mocks/core/index.ts'

/** Values any field may get: out of every range, too long, of the wrong type. */
export const extremeValues: readonly unknown[] = [
  1e308,
  -1e308,
  2 ** 53,
  -(2 ** 53),
  8.64e15,
  -6.15e16,
  0.5,
  '',
  'x'.repeat(10_000),
  '\u0000',
  null,
  true,
  [],
  {},
]

/**
 * The control API's fields, each with valid values and near misses. Fault rules answer only
 * documented statuses and never wait: a rule's 5xx or delay would be asked for, not a fault of
 * the sandbox, and a wait would only slow the run.
 */
export const controlFieldValues: Record<string, readonly unknown[]> = {
  now: [
    '2030-01-01T00:00:00Z',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '1969-12-31T23:59:59Z',
    '1970-01-01T00:30:00+01:00',
    '9999-12-31T23:59:59-14:00',
    '0000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    'yesterday',
  ],
  advanceSeconds: [60, -60, 8.64e12, -8.64e12, 253_402_300_800, 253_402_300_801, -6.15e16, '60'],
  seed: [1, 7, -1, 1.5, '3', Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 32],
  snapshot: ['saved-1', 'nope', '', 'x'.repeat(65)],
  name: ['saved-1', 'fuzz-scenario', 'x'.repeat(64), 'x'.repeat(65), 'a b', 42],
  replace: [true, false, 'yes'],
  description: ['A scenario', 'x'.repeat(1_001)],
  extends: ['empty', 'default', 'nope', ''],
  id: ['kept', 'bad id', 'x'.repeat(65)],
  method: ['POST', '*', 'get', 'G'.repeat(17), ''],
  path: ['/auth/refresh', '/bookings/:id/decline', '/payprov/*', 'auth', `/${'x'.repeat(1_000)}`],
  persona: ['host', 'nobody', 'x'.repeat(1_001)],
  message: ['Slow down', '', 'x'.repeat(1_001)],
  details: [['try later'], Array(21).fill('x'), ['x'.repeat(1_001)], 'x'],
  retryAfterSeconds: [1, 86_400, 86_401, -1],
  example: ['bookingNotPending', 'nope', 'x'.repeat(1_001)],
  networkError: [false, 'yes'],
  delayMs: [0, 60_001, 1e12, -1],
  jitterMs: [0, 60_001, 1.5],
  times: [1, 1_000_000, 1_000_001, 0, 1e308],
  probability: [0.5, 0, 1.01, -0.1],
  add: [{ bookings: [] }, { nothing: [] }, []],
  change: [{ users: [] }, 'x'],
  remove: [{ bookings: ['bkg_nope'] }, { bookings: 'x' }],
}

/** Statuses a fault rule may answer in the fuzz (the others are near misses). */
export const faultStatusValues: readonly unknown[] = [409, 429, 503, 418, 500.5, '503']

/** `Prefer` headers: the documented preferences, valid and not, and noise. */
export const preferHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'code=409',
      'code=429',
      'code=503',
      'code=200',
      'code=201',
      'code=500',
      'code=999999999999999999999',
      'code=',
      'example=bookingNotPending',
      'example=__proto__',
      'example=',
      'delay=0',
      'delay=60001',
      'delay=1000000000000',
      'delay=99999999999999999999999',
      'delay=-1',
      'delay=1e3',
      'code=409, example=notTheHost; delay=0',
      'respond-async',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: -1e6, max: 1e6 }).map((code) => `code=${code}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => `example=${text}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
)

/** Session ids that are not one, and ids that are: the answer decides which it got. */
export const otherSessionIds: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a'.repeat(4_000), 'x/y', 'a;b', '%20', 'ä', 'a\tb', 'default'),
  fc
    .string({ minLength: 1, maxLength: 80 })
    .map((text) => text.trim())
    .filter((text) => text !== ''),
)

/** Whether `headers` name a session by a malformed id: every path answers it 400. */
export function namesMalformedSession(headers: Readonly<Record<string, string>>): boolean {
  const id = headers['x-sandbox-session']
  return id !== undefined && id !== '' && !SESSION_ID.test(id)
}

/** Bodies of control calls that once broke a session, sent first in every run (see the test). */
export const FINDINGS: readonly { method: string; url: string; body: unknown }[] = [
  // A clock past what a Date holds: 500 on this call and every later one of its session,
  // reset and DELETE /__sandbox/clock included.
  { method: 'POST', url: '/__sandbox/clock', body: { advanceSeconds: -6.15e16 } },
  { method: 'POST', url: '/__sandbox/clock', body: { advanceSeconds: 8.64e12 } },
  { method: 'POST', url: '/__sandbox/clock', body: { advanceSeconds: 1e308 } },
  { method: 'POST', url: '/__sandbox/clock', body: { now: '9999-12-31T23:59:59-14:00' } },
]
