// @vitest-environment jsdom
import { expect, it } from 'vitest'
import { describeCookieSignIn } from '../../../test-support/runtimes/cookies.cases.ts'

it('runs in jsdom', () => {
  expect(typeof document.createElement).toBe('function')
})

describeCookieSignIn('jsdom')
