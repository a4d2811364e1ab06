import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import examples from '../../examples/operations/index.mjs'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'
import type { User } from '../model/schemas.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { type OperationKit, operationKit } from '../operation-kit.ts'
import { createSandbox } from '../sandbox.ts'
import { SandboxError } from './errors.ts'
import { proposedDocument } from './proposed-document.ts'
import { rulesOn } from './rules-on.ts'
import { type AnyOperationDeclaration, defineOperation } from './user-operation.ts'
import { OperationDeclarationError } from './user-operations.ts'

/** The shipped examples, typed by the package's built types: here by the sources'. */
const hostScreens = examples as unknown as (kit: OperationKit) => AnyOperationDeclaration[]

const booking = rulesOn('bookings', 'booking')

/** A write of your own: the host accepts a pending booking (PATCH, with `dryRun`). */
const acceptBooking = defineOperation({
  id: 'acceptBooking',
  method: 'PATCH',
  path: '/host/bookings/{bookingId}',
  summary: 'The host accepts a pending booking',
  auth: { role: 'host' },
  dryRun: true,
  body: z.object({ status: z.literal('accepted') }),
  responses: { 200: { schema: z.object({ id: z.string(), status: z.string() }) } },
  requires: [
    booking.exists({
      key: ({ params }) => params.bookingId!,
      message: ({ params }) => `Booking "${params.bookingId}" not found`,
    }),
    booking.caller('hostId', 'Only the booking’s host can accept it'),
  ],
  answer: async ({ collections, params, body }) => {
    const { id, status } = await collections.bookings.update(params.bookingId!, (draft) => {
      draft.status = body.status
    })
    return { id, status }
  },
})

const broken = defineOperation({
  id: 'brokenRead',
  method: 'GET',
  path: '/broken/{kind}',
  summary: 'Answers wrongly on purpose',
  auth: 'public',
  responses: { 200: { schema: z.object({ count: z.number() }) } },
  answer: ({ params }): { count: number } => {
    if (params.kind === 'throws') throw new Error('the answer broke')
    if (params.kind === 'refuses') throw new SandboxError(409, 'Refused on purpose')
    return { count: 'many' } as unknown as { count: number }
  },
})

/** Who called, by `auth`: `caller` is typed non-null for a signed-in caller (tsc checks these). */
const callers = [
  defineOperation({
    id: 'whoSignedIn',
    method: 'GET',
    path: '/who/signed-in',
    summary: 'The caller',
    auth: 'signedIn',
    responses: { 200: { schema: z.object({ publicId: z.nullable(z.string()) }) } },
    answer: ({ caller }) => {
      expectTypeOf(caller).toEqualTypeOf<Readonly<User>>()
      return { publicId: caller.publicId }
    },
  }),
  defineOperation({
    id: 'whoHosts',
    method: 'GET',
    path: '/who/host',
    summary: 'The host calling',
    auth: { role: 'host' },
    responses: { 200: { schema: z.object({ publicId: z.nullable(z.string()) }) } },
    answer: ({ caller }) => {
      expectTypeOf(caller).toEqualTypeOf<Readonly<User>>()
      return { publicId: caller.publicId }
    },
  }),
  defineOperation({
    id: 'whoPublic',
    method: 'GET',
    path: '/who/anyone',
    summary: 'Nobody: a public operation has no caller',
    auth: 'public',
    responses: { 200: { schema: z.object({ publicId: z.nullable(z.string()) }) } },
    answer: ({ caller }) => {
      expectTypeOf(caller).toEqualTypeOf<Readonly<User> | null>()
      // @ts-expect-error a public operation's caller may be null
      const unchecked = () => caller.publicId
      return { publicId: caller === null ? null : unchecked() }
    },
  }),
]

const { api, sandbox } = useSandbox({
  operations: [...hostScreens(operationKit), acceptBooking, broken, ...callers],
})

afterEach(() => vi.restoreAllMocks())

describe('an operation of your own', () => {
  it("lists the signed-in host's bookings, filtered by status and paged", async () => {
    const all = await api.request('/host/bookings?limit=2', { as: 'host' })
    expect(all.status).toBe(200)
    const hosted = (await api.collection('bookings')).filter((b) => b.hostId === personaIds.host)
    expect(all.body.total).toBe(hosted.length)
    expect(all.body.items).toHaveLength(2)
    const next = await api.request(`/host/bookings?limit=2&cursor=${all.body.next}`, { as: 'host' })
    expect(next.body.items[0].id).not.toBe(all.body.items[0].id)
    const pending = await api.request('/host/bookings?status=pending', { as: 'host' })
    expect(pending.body.items.map((b: { id: string }) => b.id).sort()).toEqual(
      hosted
        .filter((b) => b.status === 'pending')
        .map((b) => b.id)
        .sort(),
    )
    expect(pending.body.items[0]).not.toHaveProperty('hostId')
  })

  it("gives the answer the signed-in caller, typed non-null but for 'public'", async () => {
    const signedIn = await api.request('/who/signed-in', { as: 'guest' })
    expect(signedIn).toMatchObject({ status: 200, body: { publicId: personaIds.guest } })
    const host = await api.request('/who/host', { as: 'host' })
    expect(host).toMatchObject({ status: 200, body: { publicId: personaIds.host } })
    const anyone = await api.request('/who/anyone', { as: 'host' })
    expect(anyone).toMatchObject({ status: 200, body: { publicId: null } })
  })

  it('refuses in the order of the 13: token (401), role (403), then the query (400)', async () => {
    expect((await api.request('/host/bookings')).status).toBe(401)
    const guest = await api.request('/host/bookings', { as: 'guest' })
    expect(guest.status).toBe(403)
    expect(guest.body.message).toBe('This operation requires the host role')
    const bad = await api.request('/host/bookings?status=lost&limit=0', { as: 'host' })
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([
      'limit must be from 1 to 200',
      'status must be one of: pending, accepted, declined, paid, refunded',
    ])
    for (const limit of ['abc', '201', '1.5']) {
      const refused = await api.request(`/host/bookings?limit=${limit}`, { as: 'host' })
      expect(refused.status, limit).toBe(400)
      expect(refused.body.details, limit).toEqual(['limit must be from 1 to 200'])
    }
    const other = await sandbox.handle({ method: 'DELETE', url: '/host/bookings', headers: {} })
    expect(other.status).toBe(405)
    expect(other.headers.allow).toBe('GET, HEAD, OPTIONS')
  })

  it("documents pageQuery's limit as an integer from 1 to 200, as generated clients type it", async () => {
    const { paths } = proposedDocument({ paths: {} as Record<string, object> }, sandbox.operations)
    const { parameters } = (paths['/host/bookings'] as { get: { parameters: { name: string }[] } })
      .get
    expect(parameters.find((parameter) => parameter.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 200 },
    })
  })

  it('answers its named examples and fault rules as the 13 do (Prefer)', async () => {
    const example = await api.request('/host/bookings', {
      as: 'host',
      headers: { prefer: 'example=pending' },
    })
    expect(example.status).toBe(200)
    expect(example.body.items.map((b: { id: string }) => b.id)).toEqual(['bkg_pending'])
    const gateway = await api.request('/host/bookings', {
      as: 'host',
      headers: { prefer: 'code=503' },
    })
    expect(gateway.status).toBe(503)
  })

  it('runs its declared preconditions: an unknown user is a 404', async () => {
    const found = await api.request(`/users/${personaIds.host}/profile`)
    expect(found.status).toBe(200)
    expect(found.body).toMatchObject({ publicId: personaIds.host, displayName: 'Hugo Host' })
    const missing = await api.request('/users/usr_nobody/profile')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({
      code: 'NOT_FOUND',
      message: 'User "usr_nobody" not found',
    })
  })

  it('writes the session under dryRun=false only, and logs the write as a built-in one', async () => {
    const url = `/host/bookings/${anchors.bookings.pending}`
    const status = async (session?: string) =>
      (await api.collection('bookings', session)).find((b) => b.id === anchors.bookings.pending)
        .status
    const dry = await api.request(`${url}?dryRun=true`, {
      method: 'PATCH',
      as: 'host',
      body: { status: 'accepted' },
    })
    expect(dry).toMatchObject({ status: 200, body: { status: 'accepted' } })
    expect(await status()).toBe('pending')
    const applied: string[] = []
    sandbox.events.on('operation:applied', ({ data }) => void applied.push(data.operationId))
    const wet = await api.request(url, {
      method: 'PATCH',
      as: 'host',
      session: 's-accept',
      body: { status: 'accepted' },
    })
    expect(wet.status).toBe(200)
    expect(await status('s-accept')).toBe('accepted')
    expect(await status()).toBe('pending')
    // The client's sign-in first (`refreshToken`), then the write.
    expect(applied.at(-1)).toBe('acceptBooking')
    const guest = await api.request(url, { method: 'PATCH', as: 'guest', body: { status: 'x' } })
    expect(guest.status).toBe(403)
  })

  it('answers 500 in the error shape when its answer throws, and keeps serving', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
    const thrown = await api.request('/broken/throws')
    expect(thrown.status).toBe(500)
    expect(thrown.body).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Operation "brokenRead" failed: the answer broke',
    })
    expect(String(stderr.mock.calls[0]?.[1]?.stack)).toContain('the answer broke')
    expect(sandbox.journal.list().at(-1)?.problem).toBe(thrown.body.message)
    expect((await api.request('/broken/refuses')).status).toBe(409)
  })

  it('says loudly when an answer does not match its declared schema', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
    const answer = await api.request('/broken/mismatch')
    expect(answer).toMatchObject({ status: 200, body: { count: 'many' } })
    const problem = sandbox.journal.list().at(-1)?.problem
    expect(problem).toMatch(/^Operation "brokenRead" answered 200 .*body\.count: /)
    expect(stderr).toHaveBeenCalledWith(`[sandbox] ${problem}`)
  })
})

describe('declarations the sandbox refuses', () => {
  const valid = hostScreens(operationKit)
  const refused = (operations: unknown) => {
    try {
      createSandbox({ operations: operations as never })
    } catch (error) {
      expect(error).toBeInstanceOf(OperationDeclarationError)
      return (error as OperationDeclarationError).problems
    }
    throw new Error('not refused')
  }

  it('names the operation and every problem', () => {
    const { answer: _, ...noAnswer } = valid[0]!
    expect(
      refused([
        { ...noAnswer, summary: '', params: { userId: 'string' } },
        { ...valid[1], id: 'other', method: 'FETCH', body: nonEmpty() },
        42,
      ]),
    ).toEqual([
      'operation "listHostBookings": summary is required',
      'operation "listHostBookings": params must be a zod object schema',
      'operation "listHostBookings": answer must be a function',
      'operation "other": method must be one of: GET, POST, PUT, PATCH, DELETE',
      'operations[2]: must be an object (defineOperation)',
    ])
  })

  it('refuses two operations on one method and path, and a taken id', () => {
    expect(
      refused([
        valid[2],
        { ...valid[2], id: 'again', params: undefined, path: '/users/{id}/profile' },
        valid[1],
        valid[1],
      ]),
    ).toEqual([
      'operation "again": GET /users/{id}/profile is declared by operation "getUserProfile" too',
      'operation "listMyNotifications": GET /me/notifications is declared by operation "listMyNotifications" too',
    ])
    expect(refused([{ ...valid[2], id: 'declineBooking' }])).toEqual([
      'operation "declineBooking": id "declineBooking" is taken',
    ])
  })

  it('lets the built-in operation answer on its method and path, and warns', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const twin = { ...valid[2]!, id: 'myAccountStatus', path: '/payprov/account-status' }
    const own = createSandbox({ operations: [twin] })
    expect(own.operations.map((o) => o.id)).not.toContain('myAccountStatus')
    expect(warn).toHaveBeenCalledWith(
      '[sandbox] operation "myAccountStatus": GET /payprov/account-status is the built-in operation getAccountStatus, which answers: retire this proposal',
    )
  })
})
