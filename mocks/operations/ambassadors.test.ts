import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const pending = anchors.applications.pending
const path = (email: string, dryRun = false) =>
  `/admin/ambassadors/applications/${encodeURIComponent(email)}/status${dryRun ? '?dryRun=true' : ''}`

async function application(email: string) {
  return (await api.collection('ambassadorApplications')).find((a) => a.email === email)
}

describe('POST /admin/ambassadors/applications/{email}/status', () => {
  it('approves a pending application and e-mails the applicant', async () => {
    const response = await api.request(path(pending), {
      as: 'admin',
      body: { status: 'approved', note: 'Welcome aboard' },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    expect(await application(pending)).toMatchObject({ status: 'approved', note: 'Welcome aboard' })
    expect((await application(pending)).decidedAt).not.toBeNull()
    const mail = (await api.collection('outbox')).filter((m) => m.to === pending)
    expect(mail).toEqual([expect.objectContaining({ kind: 'ambassador.application.approved' })])
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const before = await application(pending)
    const response = await api.request(path(pending, true), {
      as: 'admin',
      body: { status: 'rejected' },
    })
    expect(response.status).toBe(201)
    expect(await application(pending)).toEqual(before)
    expect(await api.collection('outbox')).toEqual([])
  })

  it('with dryRun=true still reports the conflict the real call would meet', async () => {
    const response = await api.request(path(anchors.applications.approved, true), {
      as: 'admin',
      body: { status: 'approved' },
    })
    expect(response.status).toBe(409)
  })

  it('returns 409 when the application already has that status', async () => {
    const response = await api.request(path(anchors.applications.approved), {
      as: 'admin',
      body: { status: 'approved' },
    })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it('returns 403 for a signed-in user who is not an admin', async () => {
    const response = await api.request(path(pending), { as: 'host', body: { status: 'approved' } })
    expect(response.status).toBe(403)
    expect(response.body.code).toBe('FORBIDDEN')
    expect((await application(pending)).status).toBe('pending')
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(pending), { body: { status: 'approved' } })).status).toBe(401)
  })

  it('returns 400 when the path is not an e-mail', async () => {
    const response = await api.request(path('not-an-email'), {
      as: 'admin',
      body: { status: 'approved' },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual(['email must be an email'])
  })

  it('returns 400 listing every body problem', async () => {
    const response = await api.request(path(pending), {
      as: 'admin',
      body: { status: 'maybe', note: 3, extra: true },
    })
    expect(response.status).toBe(400)
    expect(response.body.details).toEqual([
      'status must be one of: approved, rejected',
      'note must be a string',
      'property extra should not exist',
    ])
  })

  it('returns 404 when no application exists for the e-mail', async () => {
    const response = await api.request(path('nobody@sandbox.test'), {
      as: 'admin',
      body: { status: 'approved' },
    })
    expect(response.status).toBe(404)
  })
})
