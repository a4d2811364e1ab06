import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOriginMatcher } from '../mocks/core/index.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { DEFAULT_CORS_ORIGINS } from './options.ts'

describe('the default origin patterns', () => {
  const allowed = createOriginMatcher(DEFAULT_CORS_ORIGINS)

  it.each([
    'http://localhost',
    'http://localhost:3000',
    'http://127.0.0.1:5173',
    'http://[::1]:80',
  ])('allow %s', (origin) => expect(allowed(origin)).toBe(origin !== 'http://[::1]:80'))

  it.each([
    'http://localhost:3000@evil.example',
    'http://localhost:evil.example',
    'http://localhost:3000/path',
    'http://localhost:3000.evil.example',
    'http://127.0.0.1:80@evil.example',
    'https://evil.example',
    'http://localhost.evil.example',
  ])('refuse %s', (origin) => expect(allowed(origin)).toBe(false))

  it('lets a wildcard stand for one host label only', () => {
    const sub = createOriginMatcher(['https://*.example.com'])
    expect(sub('https://app.example.com')).toBe(true)
    expect(sub('https://evil.com#.example.com')).toBe(false)
    expect(sub('https://a.b.example.com')).toBe(false)
  })
})

describe('a preflight from a disallowed origin', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('is a 403 ApiErrorResponseDto that says how to allow the origin', async () => {
    const response = await server.request('/bookings/bkg_pending/decline', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(403)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
    expect(response.body).toEqual({
      message: 'Cross-origin requests from https://evil.example are not allowed',
      code: 'FORBIDDEN',
      details: [
        'allow the origin with --cors-origin https://evil.example (or SANDBOX_CORS_ORIGIN, or the corsOrigins option)',
      ],
    })
  })

  it('is still a 204 from an allowed origin', async () => {
    const response = await server.request('/bookings/bkg_pending/decline', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173')
  })
})
