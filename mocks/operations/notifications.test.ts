import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const n = anchors.notifications
const path = (id: string, query = '') => `/notifications/${id}/archive${query}`
const note = async (id: string) => (await api.collection('notifications')).find((x) => x.id === id)

describe('POST /notifications/{id}/archive', () => {
  it("archives the caller's notification", async () => {
    const response = await api.request(path(n.hostUnarchived), { as: 'host', body: {} })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    const archived = await note(n.hostUnarchived)
    expect(archived.archivedAt).toEqual(expect.any(String))
    expect(archived.readAt).toEqual(archived.archivedAt)
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const response = await api.request(path(n.hostUnarchived, '?dryRun=true'), {
      as: 'host',
      body: {},
    })
    expect(response.status).toBe(201)
    expect((await note(n.hostUnarchived)).archivedAt).toBeNull()
  })

  it('returns 409 for an archived notification', async () => {
    const response = await api.request(path(n.hostArchived), { as: 'host', body: {} })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it("returns 404 for someone else's notification, so ids cannot be probed", async () => {
    const response = await api.request(path(n.guestUnarchived), { as: 'host', body: {} })
    expect(response.status).toBe(404)
    expect((await note(n.guestUnarchived)).archivedAt).toBeNull()
  })

  it('returns 404 for an unknown notification', async () => {
    expect((await api.request(path('ntf_missing'), { as: 'host', body: {} })).status).toBe(404)
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(n.hostUnarchived), { body: {} })).status).toBe(401)
  })
})
