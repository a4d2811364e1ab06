import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personaIds } from '../../fixtures/personas.ts'
import { useSandbox } from '../../test-support/sandbox/use-sandbox.ts'

const { api } = useSandbox()
const c = anchors.contracts
const path = (id: string, query = '') => `/contracts/${id}/sign${query}`
const contract = async (id: string) => (await api.collection('contracts')).find((x) => x.id === id)

describe('POST /contracts/{contractId}/sign', () => {
  it("adds the caller's signature, keeps it pending, and notifies the other party", async () => {
    const response = await api.request(path(c.unsigned), {
      as: 'host',
      body: { fullName: 'Hugo Host' },
    })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ success: true })
    const signed = await contract(c.unsigned)
    expect(signed.status).toBe('pending')
    expect(signed.signatures).toEqual([
      expect.objectContaining({ userId: personaIds.host, fullName: 'Hugo Host' }),
    ])
    const notes = (await api.collection('notifications')).filter(
      (n) => n.userId === personaIds.guest && n.kind === 'contract.signed',
    )
    expect(notes).toHaveLength(1)
  })

  it('marks the contract signed when the last party signs', async () => {
    const response = await api.request(path(c.signedByHost), {
      as: 'guest',
      body: { fullName: 'Gina Guest' },
    })
    expect(response.status).toBe(201)
    const signed = await contract(c.signedByHost)
    expect(signed.status).toBe('signed')
    expect(signed.signatures.map((s: { userId: string }) => s.userId)).toEqual([
      personaIds.host,
      personaIds.guest,
    ])
  })

  it('with dryRun=true answers 201 and writes nothing', async () => {
    const before = await contract(c.unsigned)
    const response = await api.request(path(c.unsigned, '?dryRun=true'), {
      as: 'guest',
      body: { fullName: 'Gina Guest' },
    })
    expect(response.status).toBe(201)
    expect(await contract(c.unsigned)).toEqual(before)
  })

  it('returns 409 when the caller has already signed', async () => {
    const response = await api.request(path(c.signedByHost), {
      as: 'host',
      body: { fullName: 'Hugo Host' },
    })
    expect(response.status).toBe(409)
    expect(response.body.code).toBe('CONFLICT')
  })

  it('returns 403 for someone who is not a party', async () => {
    const response = await api.request(path(c.unsigned), {
      as: 'admin',
      body: { fullName: 'Ada Admin' },
    })
    expect(response.status).toBe(403)
  })

  it('returns 404 for an unknown contract', async () => {
    const response = await api.request(path('ctr_missing'), {
      as: 'host',
      body: { fullName: 'Hugo Host' },
    })
    expect(response.status).toBe(404)
  })

  it('returns 400 when fullName is missing or blank', async () => {
    const missing = await api.request(path(c.unsigned), { as: 'host', body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.details).toEqual(['fullName is required'])
    const blank = await api.request(path(c.unsigned), { as: 'host', body: { fullName: '   ' } })
    expect(blank.body.details).toEqual(['fullName should not be empty'])
  })

  it('returns 401 without a token', async () => {
    expect((await api.request(path(c.unsigned), { body: { fullName: 'X' } })).status).toBe(401)
  })
})
