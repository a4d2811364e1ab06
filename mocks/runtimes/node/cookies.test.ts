import { describeCookieSignIn } from './cookies.cases.ts'

describeCookieSignIn('node')
