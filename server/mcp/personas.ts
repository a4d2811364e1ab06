/**
 * @module
 * Signing in as a persona, as the dashboard does (the identity provider's sign-in sets the
 * `refresh_token` cookie, a refresh with `dryRun=true` gives the access token), by the client.
 */
import { CLIENT_HEADER } from '../../mocks/core/index.ts'
import type { Persona } from '../../mocks/model/content.ts'
import type { ToolCall } from './tool.ts'

/** The personas of the sandbox, with their fixed credentials. */
export const listPersonas = (call: ToolCall) =>
  call.connection.backend.client.personas<Persona>(call.session)

/** Signs in as `key` in the call's session; `quiet` skips the identity provider (no cookie). */
export async function signInAs(call: ToolCall, key: string, options: { quiet?: boolean } = {}) {
  const { accessToken, refreshToken } = await call.connection.backend.client.signIn(key, {
    session: call.session,
    idp: !options.quiet,
    // Marks the sign-in requests as the tools' own, so the journal can leave them out.
    headers: { [CLIENT_HEADER]: 'mcp' },
  })
  return { persona: key, accessToken, refreshToken, authorization: `Bearer ${accessToken}` }
}
