/**
 * @module
 * Signing in as a persona, as the dashboard does: the identity provider's sign-in sets the
 * `refresh_token` cookie, a refresh with `dryRun=true` (writes nothing) gives the access token.
 */
import { CLIENT_HEADER } from '../../mocks/core/index.ts'
import type { Persona } from '../../mocks/model/content.ts'
import { refusalError, type ToolCall, ToolFailure, toolError } from './tool.ts'

/** What signing in reads of a persona that `GET /__sandbox/personas` lists. */
type PersonaCredentials = Pick<Persona, 'key' | 'publicId' | 'roles' | 'refreshToken' | 'idpCode'>

/** What signing in gives: the access token, the `refresh_token` cookie's value, what to send. */
type SignedIn = Record<'persona' | 'accessToken' | 'refreshToken' | 'authorization', string>

/** Marks the sign-in requests as the tools' own, so the journal can leave them out. */
const OWN = { [CLIENT_HEADER]: 'mcp' }

/** The personas of the sandbox, with their fixed credentials. */
export async function listPersonas(call: ToolCall): Promise<PersonaCredentials[]> {
  const answer = await call.send({ method: 'GET', url: '/__sandbox/personas' })
  if (answer.status !== 200)
    throw new ToolFailure(refusalError(answer, 'Failed to list the personas'))
  return answer.body as PersonaCredentials[]
}

/** Signs in as `key` in the call's session; `quiet` skips the identity provider (no cookie). */
export async function signInAs(
  call: ToolCall,
  key: string,
  options: { quiet?: boolean } = {},
): Promise<SignedIn> {
  const personas = await listPersonas(call)
  const persona = personas.find((candidate) => candidate.key === key)
  if (!persona) {
    throw new ToolFailure(
      toolError(`Unknown persona "${key}"`, [
        `persona must be one of: ${personas.map((candidate) => candidate.key).join(', ')}`,
      ]),
    )
  }
  let refreshToken = persona.refreshToken
  if (!options.quiet) {
    const completed = await call.send({
      method: 'POST',
      url: '/auth/idp/complete',
      headers: OWN,
      body: { code: persona.idpCode },
    })
    const cookie = completed.setCookie
      .map((line) => /^refresh_token=([^;]*)/.exec(line)?.[1])
      .find((value) => value !== undefined)
    if (completed.status !== 201 || cookie === undefined) {
      throw new ToolFailure(refusalError(completed, `Failed to sign in as ${key}`))
    }
    refreshToken = cookie
  }
  const refreshed = await call.send({
    method: 'POST',
    url: '/auth/refresh?dryRun=true',
    headers: OWN,
    body: { refreshToken },
  })
  const accessToken = (refreshed.body as { accessToken?: unknown } | undefined)?.accessToken
  if (refreshed.status !== 200 || typeof accessToken !== 'string') {
    throw new ToolFailure(refusalError(refreshed, `Failed to sign in as ${key} (persona)`))
  }
  return { persona: key, accessToken, refreshToken, authorization: `Bearer ${accessToken}` }
}
