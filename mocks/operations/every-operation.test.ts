import { describe, expect, it } from 'vitest'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'
import { operations } from './table.ts'

const { api, sandbox } = useSandbox()

const sampleParams: Record<string, string> = {
  email: 'applicant@sandbox.test',
  listingId: 'ven_pending_review',
  targetPublicId: 'usr_guest',
  bookingId: 'bkg_pending',
  contractId: 'ctr_unsigned',
  id: 'ntf_host_unarchived',
}

/** A body each operation's schema accepts, where `{}` is not one. */
const sampleBodies: Record<string, object> = {
  updateAmbassadorApplicationStatus: { status: 'approved' },
  signContract: { fullName: 'Ada Lovelace' },
  createCheckoutSession: { bookingId: 'bkg_accepted' },
  completeIdpSignIn: { code: 'idp_host' },
  testRefundWebhook: { bookingId: 'bkg_paid' },
}

const posts = operations
  .filter((operation) => operation.method === 'POST')
  .map((operation) => ({
    name: `${operation.method} ${operation.path}`,
    url: operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(sampleParams[name]!),
    ),
    auth: operation.auth,
    dryRun: operation.dryRun,
    body: sampleBodies[operation.id] ?? {},
  }))

async function stateDigest() {
  const store = await sandbox.store()
  return store.writeCount()
}

describe.each(posts)('$name', ({ url, auth }) => {
  const as = auth === 'admin' ? 'admin' : 'host'
  const signedIn = auth === 'public' ? {} : { as: as as 'admin' | 'host' }

  it('returns 413 for a body above 100 kB and writes nothing', async () => {
    const response = await api.request(url, { ...signedIn, body: { padding: 'x'.repeat(102_401) } })
    expect(response.status).toBe(413)
    expect(response.body).toEqual({
      message: 'Request body is larger than 102400 bytes',
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect(await stateDigest()).toBe(0)
  })

  it('returns 415 for a body that is not JSON', async () => {
    const response = await api.request(url, {
      ...signedIn,
      body: 'a=1',
      headers: { 'content-type': 'text/plain' },
    })
    expect(response.status).toBe(415)
    expect(response.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('returns 400 with details for malformed JSON and for an array body', async () => {
    for (const body of ['{"a":', '[]']) {
      const response = await api.request(url, { ...signedIn, body })
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(response.body.details).toHaveLength(1)
    }
    expect(await stateDigest()).toBe(0)
  })
})

describe.each(posts.filter((post) => post.dryRun))('$name with dryRun', ({ url, auth, body }) => {
  it('returns 400 for an unknown dryRun value', async () => {
    const response = await api.request(`${url}?dryRun=TRUE`, {
      ...(auth === 'public' ? {} : { as: auth === 'admin' ? 'admin' : 'host' }),
      body,
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['dryRun must be one of: true, false'])
  })
})

describe('the operation table', () => {
  it('has the 13 operations of the reference, in its order', () => {
    expect(operations.map((operation) => operation.row)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    ])
    expect(operations.filter((operation) => operation.dryRun).map((o) => o.row)).toEqual([
      1, 3, 4, 5, 6, 7, 8, 9, 12,
    ])
  })
})
