import { describe, expect, it } from 'vitest'
import { SandboxError } from './errors.ts'
import { namesSession, resolveSession, SESSION_COOKIE, SESSION_HEADER } from './session-id.ts'

describe('resolveSession', () => {
  it('takes the header when it is not empty, over the cookie', () => {
    expect(resolveSession({ [SESSION_HEADER]: 'h1', cookie: `${SESSION_COOKIE}=c1` })).toBe('h1')
  })

  it('takes the cookie when the header is empty or missing', () => {
    expect(resolveSession({ [SESSION_HEADER]: '', cookie: `${SESSION_COOKIE}=abc` })).toBe('abc')
    expect(resolveSession({ cookie: `theme=dark; ${SESSION_COOKIE}=abc` })).toBe('abc')
  })

  it('falls back to the default session', () => {
    expect(resolveSession({})).toBe('default')
    expect(resolveSession({ [SESSION_HEADER]: '', cookie: `${SESSION_COOKIE}=` })).toBe('default')
  })

  it('refuses an invalid id with a 400 naming the header and the cookie', () => {
    let caught: unknown
    try {
      resolveSession({ [SESSION_HEADER]: 'has space' })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(SandboxError)
    expect((caught as SandboxError).status).toBe(400)
    expect(String((caught as SandboxError).details)).toContain(SESSION_HEADER)
    expect(String((caught as SandboxError).details)).toContain(SESSION_COOKIE)
  })

  it('tells whether a session is named at all', () => {
    expect(namesSession({})).toBe(false)
    expect(namesSession({ [SESSION_HEADER]: '' })).toBe(true)
    expect(namesSession({ cookie: `${SESSION_COOKIE}=x` })).toBe(true)
    expect(namesSession({ cookie: 'other_session=x' })).toBe(false)
  })
})
