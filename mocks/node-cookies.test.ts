import { describeCookieSignIn } from './node-cookies.cases.ts'

describeCookieSignIn('node')
