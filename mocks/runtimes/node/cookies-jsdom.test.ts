// @vitest-environment jsdom
import { expect, it } from 'vitest'
import { describeCookieSignIn } from './cookies.cases.ts'

it('runs in jsdom', () => {
  expect(typeof document.createElement).toBe('function')
})

describeCookieSignIn('jsdom')
