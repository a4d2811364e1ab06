/**
 * @module
 * The shapes of the content a sandbox is given (its personas and scenarios, from `fixtures/`).
 */
import type { DataSet, User } from './schemas.ts'

export type PersonaKey =
  | 'admin'
  | 'host'
  | 'host-restricted'
  | 'host-pending'
  | 'guest'
  | 'applicant'

export interface Persona {
  key: PersonaKey
  publicId: string
  displayName: string
  email: string
  roles: User['roles']
  /** Accepted by `POST /auth/refresh` (body `refreshToken` or `refresh_token` cookie). */
  refreshToken: string
  /** Accepted by `POST /auth/idp/complete` as `{ "code": ... }`. */
  idpCode: string
  /** What this persona is for. */
  description: string
}

/** A named starting state: turns a seed into plain records. */
export interface Scenario {
  name: string
  description: string
  build(seed: number): DataSet
}
