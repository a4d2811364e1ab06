/**
 * The core assembled from nothing but what this file gives it: two stub operations, one
 * persona, a one-user scenario and stub scenario files. Every module of the scenarios,
 * recordings, factories, operations, fixtures and spec folders throws when loaded, so a
 * core that imports any of them fails here (as `npm run check:imports` does).
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Persona, Scenario } from '../model/content.ts'
import type { DataSet } from '../model/schemas.ts'
import { nonEmpty, z } from '../model/zod.ts'
import type { SandboxRequest } from './http.ts'
import type { SandboxCore } from './sandbox-types.ts'
import type { ScenarioFiles } from './scenario-files.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const ELSEWHERE = ['mocks/scenarios', 'mocks/factories', 'mocks/operations']
for (const folder of [...ELSEWHERE, 'recordings', 'fixtures', 'spec']) {
  for (const file of readdirSync(`${ROOT}${folder}`, { recursive: true }) as string[]) {
    if (!/\.(ts|mjs|js)$/.test(file)) continue
    const path = `${ROOT}${folder}/${file}`
    vi.doMock(path, () => {
      throw new Error(`the core loaded ${folder}/${file}`)
    })
  }
}

const NOW = new Date('2026-06-01T12:00:00Z')
const SECRET = 'core-alone'
const persona: Persona = {
  key: 'host',
  publicId: 'usr_pat',
  displayName: 'Pat',
  email: 'pat@example.test',
  roles: ['host'],
  refreshToken: 'rt_pat',
  idpCode: 'idp_pat',
  description: 'The one persona',
}

let sandbox: SandboxCore
let token: string

beforeAll(async () => {
  const { assembleSandbox } = await import('./sandbox.ts')
  const { defineBuiltInOperation } = await import('./operation.ts')
  const { ScenarioError } = await import('./scenario-files.ts')
  const { issueAccessToken } = await import('./tokens.ts')
  const { collectionNames } = await import('../model/schemas.ts')
  const readName = defineBuiltInOperation({
    id: 'readName',
    row: 1,
    method: 'GET',
    path: '/me',
    auth: 'user',
    dryRun: false,
    successStatus: 200,
    params: z.object({}),
    body: undefined,
    run: async ({ caller }) => ({ body: { name: caller?.displayName } }),
  })
  const rename = defineBuiltInOperation({
    id: 'rename',
    row: 2,
    method: 'POST',
    path: '/me/name',
    auth: 'user',
    dryRun: true,
    successStatus: 201,
    params: z.object({}),
    body: z.strictObject({ name: nonEmpty() }),
    run: async ({ caller, body, store }) => ({
      body: { renamed: true },
      apply: async () => {
        await store.users.update(caller!.publicId, (user) => {
          user.displayName = body.name
        })
      },
    }),
  })
  const data = Object.fromEntries(collectionNames.map((name) => [name, []])) as unknown as DataSet
  data.users.push({
    publicId: persona.publicId,
    email: persona.email,
    displayName: persona.displayName,
    roles: ['host'],
    createdAt: NOW.toISOString(),
    refreshToken: persona.refreshToken,
    idpCode: persona.idpCode,
    refreshTokenRevokedAt: null,
  })
  const one: Scenario = { name: 'one', description: 'One user', build: () => structuredClone(data) }
  const scenarioFiles: ScenarioFiles = {
    resolve(inputs) {
      if (Object.keys(inputs).length === 0) return {}
      throw new ScenarioError('Invalid scenario', ['this sandbox reads no scenario files'])
    },
    exportSnapshot: (saved, _origin, { name, description }) => ({
      name,
      description,
      extends: saved.scenario,
    }),
    rebuildSnapshot: (origin, _changes, { name }) => ({
      ok: true,
      snapshot: { ...origin, savedAs: name },
    }),
  }
  sandbox = assembleSandbox(
    {
      operations: [readName, rename],
      personas: [persona],
      scenarios: { one },
      defaultSeed: 1,
      scenarioFiles,
    },
    { scenario: 'one', secret: SECRET, now: () => NOW },
  )
  const claims = { sub: persona.publicId, roles: persona.roles }
  token = await issueAccessToken({ secret: SECRET, ttlSeconds: 900 }, claims, NOW)
})

function request(method: string, url: string, body?: object): SandboxRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body) headers['content-type'] = 'application/json'
  return { method, url, headers, body: body ? JSON.stringify(body) : null }
}

describe('the core with nothing but a stub table', () => {
  it('loads no scenarios, recordings, factories, operations, fixtures or spec module', async () => {
    // Loading one is an error whose cause names it: the core's own loading would fail so.
    const failure = (loading: Promise<unknown>) =>
      loading.then(
        () => 'loaded',
        (error: Error) => String(error.cause),
      )
    expect(await failure(import('../scenarios/scenario-inputs.ts'))).toBe(
      'Error: the core loaded mocks/scenarios/scenario-inputs.ts',
    )
    expect(await failure(import('../../fixtures/personas.ts'))).toBe(
      'Error: the core loaded fixtures/personas.ts',
    )
  })

  it('answers an operation of the table for the persona', async () => {
    const answer = await sandbox.handle(request('GET', '/me'))
    expect(answer).toMatchObject({ status: 200, body: { name: 'Pat' } })
  })

  it('answers control calls, and uses the scenario files it is given', async () => {
    const users = await sandbox.handle(request('GET', '/__sandbox/collections/users'))
    expect(users.body).toMatchObject([{ publicId: 'usr_pat' }])
    const added = await sandbox.handle(request('POST', '/__sandbox/scenarios', { name: 'x' }))
    expect(added).toMatchObject({
      status: 400,
      body: { message: 'Invalid scenario', details: ['this sandbox reads no scenario files'] },
    })
    await sandbox.snapshots.save('saved')
    expect(await sandbox.snapshots.export('saved')).toEqual({
      name: 'saved',
      description: expect.stringContaining('Saved from session "default"'),
      extends: 'one',
    })
  })

  it('writes, resets to the scenario, and journals every request', async () => {
    sandbox.journal.clear()
    expect((await sandbox.handle(request('POST', '/me/name', { name: 'Sam' }))).status).toBe(201)
    expect((await sandbox.store()).users.get('usr_pat')?.displayName).toBe('Sam')
    await sandbox.handle(request('GET', '/nowhere'))
    expect(sandbox.journal.list().map(({ operationId, status }) => [operationId, status])).toEqual([
      ['rename', 201],
      [null, 404],
    ])
    expect(await sandbox.reset()).toEqual({ session: 'default', scenario: 'one', seed: 1 })
    expect((await sandbox.store()).users.get('usr_pat')?.displayName).toBe('Pat')
    expect(sandbox.journal.list()).toEqual([])
  })
})
