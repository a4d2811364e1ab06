import { beforeEach, describe, expect, it, vi } from 'vitest'
import { sandboxHeaders } from './index.ts'

/** The incoming request's headers, as `headers()` of `next/headers` gives them in a test. */
let incoming = new Headers()

vi.mock('next/headers', () => ({ headers: async () => incoming }))

describe('sandboxHeaders', () => {
  beforeEach(() => {
    incoming = new Headers()
  })

  it('forwards the session of the sandbox_session cookie', async () => {
    incoming.set('cookie', 'theme=dark; sandbox_session=pw-1; refresh_token=rt')
    expect(await sandboxHeaders()).toEqual({ 'x-sandbox-session': 'pw-1' })
  })

  it('forwards the x-sandbox-session header, which wins over the cookie', async () => {
    incoming.set('cookie', 'sandbox_session=from-cookie')
    incoming.set('x-sandbox-session', 'from-header')
    expect(await sandboxHeaders()).toEqual({ 'x-sandbox-session': 'from-header' })
  })

  it('gives no header when the request names no session', async () => {
    incoming.set('cookie', 'theme=dark')
    expect(await sandboxHeaders()).toEqual({})
  })

  it('gives no header for a request without cookies', async () => {
    expect(await sandboxHeaders()).toEqual({})
  })
})
