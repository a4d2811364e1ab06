export { completeIdpSignIn, REFRESH_COOKIE, refreshToken } from './auth.ts'
export { operations } from './table.ts'
