import { describeCookieSignIn } from '../../../test-support/runtimes/cookies.cases.ts'

describeCookieSignIn('node')
