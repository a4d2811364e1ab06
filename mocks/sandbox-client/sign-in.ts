/**
 * @module
 * Signing a persona in with its refresh token on `POST /auth/refresh?dryRun=true` (not rotated,
 * so it signs in again and again), over any transport; reading a reply's body. No Node API.
 */
import type { Persona, PersonaKey } from '../../fixtures/personas.ts'
import type { Sandbox } from '../sandbox.ts'

/** What signing in needs of a persona. */
export type PersonaCredentials = Pick<Persona, 'key' | 'refreshToken'>

/** A request as every transport here can send it. */
export interface PlainRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

/** The request that exchanges `refreshToken` for an access token. */
export function refreshRequest(refreshToken: string): PlainRequest {
  return {
    method: 'POST',
    url: '/auth/refresh?dryRun=true',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }
}

/** Signs `persona` in through `send` and returns its access token; throws when refused. */
export async function signInWith(
  send: (request: PlainRequest) => Promise<{ status: number; body: unknown }>,
  persona: PersonaCredentials,
): Promise<string> {
  const answer = await send(refreshRequest(persona.refreshToken))
  const accessToken = (answer.body as { accessToken?: unknown } | undefined)?.accessToken
  if (answer.status !== 200 || typeof accessToken !== 'string') {
    throw new Error(
      `Failed to sign in as "${persona.key}": ${answer.status} ${JSON.stringify(answer.body) ?? ''}`.trimEnd(),
    )
  }
  return accessToken
}

/** An access token of `persona` (or its key) from a sandbox in this process (journaled). */
export function signIn(
  sandbox: Sandbox,
  persona: PersonaKey | PersonaCredentials,
): Promise<string> {
  const credentials =
    typeof persona === 'string'
      ? sandbox.personas.find((candidate) => candidate.key === persona)
      : persona
  if (!credentials) {
    return Promise.reject(new Error(`Failed to sign in as "${persona}": no such persona`))
  }
  return signInWith((request) => sandbox.handle(request), credentials)
}

/** A reply body: its JSON value, the text itself when it is not JSON, `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
