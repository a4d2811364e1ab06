/**
 * @module
 * The users a learned scenario changes or adds: the roles the answers showed, and the
 * credentials the sign-ins showed, or made up in the personas' format so a person can sign
 * in as them.
 */
import { base64url } from '../../fixtures/personas.ts'
import type { Factories } from '../../mocks/factories/create-factories.ts'
import type { CollectionName, User } from '../../mocks/model/schemas.ts'
import type { Store } from '../../mocks/model/store.ts'
import type { Fact } from './facts.ts'

/** A learned user's credentials, so that a person can sign in as them. */
export interface LearnedSignIn {
  publicId: string
  refreshToken: string
  idpCode: string
}

/** What writing the learned records of each collection needs. */
export interface Writer {
  store: Store
  factories: Factories
  at: { session: string }
  /** Notes the exchanges behind a record. */
  note(name: CollectionName, key: string, fact: Fact): void
  /** Changes the fields that differ. */
  update(name: CollectionName, key: string, fields: Record<string, unknown>): Promise<void>
}

/** Credentials of a user the sandbox makes up, in the personas' format. */
export function madeUpCredentials(publicId: string) {
  const slug = publicId.replace(/[^A-Za-z0-9_]/g, '_')
  return {
    refreshToken: `rt_${slug}.${base64url(`sandbox-refresh:${publicId}`)}`,
    idpCode: `idp_${slug}`,
  }
}

/** Writes the users of `users` facts; `hosts` are those a booking needs as its host. */
export async function writeUsers(
  { store, factories, at, note, update }: Writer,
  users: readonly Fact[],
  hosts: ReadonlySet<unknown>,
): Promise<LearnedSignIn[]> {
  const signIns: LearnedSignIn[] = []
  const codes = new Set(users.map((fact) => fact.initial.idpCode))
  const tokens = new Set(users.map((fact) => fact.initial.refreshToken))
  for (const fact of users) {
    if (fact.initialExists !== true) continue
    const admin = fact.initial.admin as boolean | undefined
    const known = store.users.get(fact.key)
    if (known) {
      const roles = known.roles.filter((role) => role !== 'admin' || admin !== false)
      if (admin === true && !roles.includes('admin')) roles.push('admin')
      const fields: Record<string, unknown> = { roles }
      for (const field of ['refreshToken', 'idpCode'] as const) {
        if (Object.hasOwn(fact.initial, field)) fields[field] = fact.initial[field]
      }
      if (Object.hasOwn(fact.initial, 'refreshToken')) fields.refreshTokenRevokedAt = null
      await update('users', fact.key, fields)
      note('users', fact.key, fact)
      continue
    }
    const roles: User['roles'] = [hosts.has(fact.key) ? 'host' : 'guest']
    if (admin === true) roles.push('admin')
    // A made-up credential never takes one the recording showed for someone else.
    const unique = (value: string, taken: Set<unknown>) => {
      let candidate = value
      for (let n = 2; taken.has(candidate); n++) {
        candidate = value.includes('.') ? value.replace('.', `_${n}.`) : `${value}_${n}`
      }
      taken.add(candidate)
      return candidate
    }
    const credentialsOf = (publicId: string) => {
      const made = madeUpCredentials(publicId)
      return {
        refreshToken:
          (fact.initial.refreshToken as string | undefined) ?? unique(made.refreshToken, tokens),
        idpCode: (fact.initial.idpCode as string | undefined) ?? unique(made.idpCode, codes),
      }
    }
    let created: User
    let credentials: { refreshToken: string; idpCode: string }
    if (fact.key.startsWith('~')) {
      // Known by a sign-in only: the factory picks the id, the credentials follow from it.
      created = await factories.users({ roles, refreshTokenRevokedAt: null }, at)
      credentials = credentialsOf(created.publicId)
      await update('users', created.publicId, credentials)
    } else {
      credentials = credentialsOf(fact.key)
      created = await factories.users(
        { publicId: fact.key, roles, refreshTokenRevokedAt: null, ...credentials },
        at,
      )
    }
    signIns.push({ publicId: created.publicId, ...credentials })
    note('users', created.publicId, fact)
  }
  return signIns
}
