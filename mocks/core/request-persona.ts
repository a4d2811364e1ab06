/**
 * @module
 * Which persona a request comes from, for fault rules that name one: the subject
 * of a valid bearer token, else the owner of the refresh token it sends (body
 * `refreshToken`, then the `refresh_token` cookie). Only asked when a rule needs it.
 */
import type { Persona } from '../model/content.ts'
import type { SandboxRequest } from './http.ts'
import { type TokenSettings, verifyAccessToken } from './tokens.ts'

export async function requestPersona(
  request: SandboxRequest,
  cookies: Readonly<Record<string, string>>,
  personas: readonly Persona[],
  tokens: TokenSettings,
  now: Date,
): Promise<string | undefined> {
  const [scheme, token] = request.headers.authorization?.trim().split(/\s+/) ?? []
  if (scheme?.toLowerCase() === 'bearer' && token) {
    try {
      const { sub } = await verifyAccessToken(tokens, token, now)
      return personas.find((persona) => persona.publicId === sub)?.key
    } catch {
      return undefined
    }
  }
  let refreshToken = cookies.refresh_token
  if (request.body && request.body.length < 10_000) {
    try {
      const body = JSON.parse(request.body) as { refreshToken?: unknown }
      if (typeof body?.refreshToken === 'string') refreshToken = body.refreshToken
    } catch {
      // Not JSON: the pipeline will say so.
    }
  }
  return personas.find((persona) => persona.refreshToken === refreshToken)?.key
}
