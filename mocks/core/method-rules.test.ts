import { describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { createSandbox } from '../sandbox.ts'

const sandbox = createSandbox()
const decline = `/bookings/${anchors.bookings.pending}/decline`

function send(method: string, url: string, headers: Record<string, string> = {}) {
  return sandbox.handle({ method, url, headers })
}

describe('another method on a known path', () => {
  it('answers 405 with Allow on an operation path', async () => {
    const response = await send('PUT', decline)
    expect(response.status).toBe(405)
    expect(response.headers.allow).toBe('POST, OPTIONS')
    expect(response.body).toEqual({
      message: `Method PUT is not allowed on ${decline}`,
      code: 'METHOD_NOT_ALLOWED',
      details: ['allowed methods: POST, OPTIONS'],
    })
    expect(sandbox.journal.list().at(-1)).toMatchObject({ method: 'PUT', status: 405 })
  })

  it('answers 405 with Allow on a control path', async () => {
    const reset = await send('GET', '/__sandbox/reset')
    expect(reset.status).toBe(405)
    expect(reset.headers.allow).toBe('POST, OPTIONS')
    const health = await send('DELETE', '/__sandbox/health')
    expect(health.status).toBe(405)
    expect(health.headers.allow).toBe('GET, HEAD, OPTIONS')
    const requests = await send('POST', '/__sandbox/requests')
    expect(requests.headers.allow).toBe('GET, DELETE, HEAD, OPTIONS')
  })

  it('still answers 404 for a path that exists with no method', async () => {
    const response = await send('GET', '/bookings/x/accept')
    expect(response.status).toBe(404)
    expect(response.headers.allow).toBeUndefined()
    expect((await send('PUT', '/__sandbox/nothing')).status).toBe(404)
  })

  it('lists the methods of a known path for OPTIONS', async () => {
    const response = await send('OPTIONS', decline)
    expect(response.status).toBe(204)
    expect(response.headers.allow).toBe('POST, OPTIONS')
    expect(response.body).toBeUndefined()
  })
})

describe('HEAD', () => {
  it('answers like GET without a body, with the length of the GET body', async () => {
    const get = await send('GET', '/__sandbox/health')
    const head = await send('HEAD', '/__sandbox/health')
    expect(head.status).toBe(200)
    expect(head.body).toBeUndefined()
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
    expect(head.headers['content-length']).toBe(String(JSON.stringify(get.body).length))
  })

  it('runs an operation like GET, refusals included', async () => {
    const head = await send('HEAD', '/payprov/account-status')
    expect(head.status).toBe(401)
    expect(head.body).toBeUndefined()
    expect(sandbox.journal.list().at(-1)).toMatchObject({
      method: 'HEAD',
      status: 401,
      operationId: 'getAccountStatus',
    })
  })
})
