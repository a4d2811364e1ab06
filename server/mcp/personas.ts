/**
 * @module
 * Signing in as a persona, as the dashboard does: the identity provider's sign-in sets the
 * `refresh_token` cookie, then a token refresh (`dryRun=true`, which issues the token and
 * writes nothing) gives the access token. Both requests go to the call's session.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { refusalError, type ToolCall, toolError } from './tool.ts'

export interface PersonaCredentials {
  key: string
  displayName: string
  roles: string[]
  refreshToken: string
  idpCode: string
}

/** What signing in gives: the access token, the `refresh_token` cookie's value, what to send. */
export const signedInSchema = z.object({
  persona: z.string(),
  accessToken: z.string(),
  refreshToken: z.string(),
  authorization: z.string(),
})

/** The personas of the sandbox, with their fixed credentials. */
export async function listPersonas(
  call: ToolCall,
): Promise<{ personas: PersonaCredentials[] } | { error: CallToolResult }> {
  const answer = await call.send({ method: 'GET', url: '/__sandbox/personas' })
  if (answer.status !== 200) return { error: refusalError(answer, 'Failed to list the personas') }
  return { personas: answer.body as PersonaCredentials[] }
}

/** Signs in as `key` in the call's session; `quiet` skips the identity provider (no cookie). */
export async function signInAs(
  call: ToolCall,
  key: string,
  options: { quiet?: boolean } = {},
): Promise<z.infer<typeof signedInSchema> | { error: CallToolResult }> {
  const listed = await listPersonas(call)
  if ('error' in listed) return listed
  const persona = listed.personas.find((candidate) => candidate.key === key)
  if (!persona) {
    return {
      error: toolError(`Unknown persona "${key}"`, [
        `persona must be one of: ${listed.personas.map((candidate) => candidate.key).join(', ')}`,
      ]),
    }
  }
  let refreshToken = persona.refreshToken
  if (!options.quiet) {
    const completed = await call.send({
      method: 'POST',
      url: '/auth/idp/complete',
      body: { code: persona.idpCode },
    })
    const cookie = completed.setCookie
      .map((line) => /^refresh_token=([^;]*)/.exec(line)?.[1])
      .find((value) => value !== undefined)
    if (completed.status !== 201 || cookie === undefined) {
      return { error: refusalError(completed, `Failed to sign in as ${key}`) }
    }
    refreshToken = cookie
  }
  const refreshed = await call.send({
    method: 'POST',
    url: '/auth/refresh?dryRun=true',
    body: { refreshToken },
  })
  const accessToken = (refreshed.body as { accessToken?: unknown } | undefined)?.accessToken
  if (refreshed.status !== 200 || typeof accessToken !== 'string') {
    return { error: refusalError(refreshed, `Failed to sign in as ${key} (persona)`) }
  }
  return { persona: key, accessToken, refreshToken, authorization: `Bearer ${accessToken}` }
}
