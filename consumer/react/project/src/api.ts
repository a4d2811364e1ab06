import { client } from './client/client.gen.ts'
import { completeIdpSignIn, refreshToken } from './client/sdk.gen.ts'

// Generated from openapi.app.json, which `npm run openapi` writes (see codegen/); its base URL
// is the sandbox's, http://localhost:4010, kept in development, tests and sandbox builds. A
// production build calls the API that `.env.production` names. Cookies go with every call.
const apiUrl: string | undefined = import.meta.env.VITE_API_URL
client.setConfig({ ...(apiUrl ? { baseUrl: apiUrl } : {}), credentials: 'include' })

/** The access token of the session the refresh_token cookie holds, or `null` when none. */
export async function restoreSession(): Promise<string | null> {
  const { data } = await refreshToken({ body: {} })
  return data?.accessToken ?? null
}

/** The app's own sign-in: the identity provider's code, then the refresh cookie traded for a token. */
export async function signIn(code: string): Promise<string> {
  await completeIdpSignIn({ body: { code }, throwOnError: true })
  const { data } = await refreshToken({ body: {}, throwOnError: true })
  return data.accessToken
}

/** The `Authorization` header of a signed-in call. */
export function bearer(accessToken: string): { authorization: string } {
  return { authorization: `Bearer ${accessToken}` }
}
