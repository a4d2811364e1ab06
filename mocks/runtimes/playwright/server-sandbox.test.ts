import type { BrowserContext } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCli, type TestCli } from '../../../test-support/server/test-cli.ts'
import type { JournalEntry } from '../../core/index.ts'
import { createServerSandbox, type ServerSandboxOptions } from './server-sandbox.ts'

let cli: TestCli
let server: string
type Cookie = Parameters<BrowserContext['addCookies']>[0][number]
const cookies: Cookie[] = []
const context = {
  addCookies: async (added: readonly Cookie[]) => {
    cookies.push(...added)
  },
} as BrowserContext

beforeAll(async () => {
  cli = startTestCli([])
  server = await cli.url
})
afterAll(() => cli.stop())

const options = (extra: Partial<ServerSandboxOptions> = {}): ServerSandboxOptions => ({
  server,
  scenario: 'default',
  seed: undefined,
  baseURL: 'http://127.0.0.1:3000',
  context,
  label: 'unit',
  ...extra,
})

describe('a session on a running server', () => {
  it('sets its cookie for the server host and the baseURL host, and journals only the API calls', async () => {
    cookies.length = 0
    const sandbox = await createServerSandbox(options())
    expect(cookies.map((cookie) => [cookie.name, cookie.domain, cookie.path])).toEqual([
      ['sandbox_session', 'localhost', '/'],
      ['sandbox_session', '127.0.0.1', '/'],
    ])
    const session = cookies[0]!.value
    expect(session).toMatch(/^playwright-unit-[0-9a-f-]{36}$/)
    expect(sandbox.journal.list()).toEqual([])

    const answer = await fetch(`${server}/auth/refresh?dryRun=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `sandbox_session=${session}` },
      body: JSON.stringify({ refreshToken: 'rt_nobody.x' }),
    })
    expect(answer.status).toBe(401)
    // Read right after the answer, with no waiting: the journal is the server's, now.
    expect(sandbox.journal.list()).toMatchObject([
      { operationId: 'refreshToken', status: 401, session },
    ])
    expect(sandbox.journal.toHar().log.entries).toHaveLength(1)
  })

  it('starts at the scenario and seed it is given, and a bare reset returns there', async () => {
    const sandbox = await createServerSandbox(options({ scenario: 'empty', seed: 7 }))
    expect((await sandbox.store()).snapshot).toMatchObject({ scenario: 'empty', seed: 7 })
    expect(await sandbox.reset({ scenario: 'default' })).toMatchObject({ scenario: 'default' })
    expect((await sandbox.store()).bookings.get('bkg_pending')?.status).toBe('pending')
    expect(await sandbox.reset()).toMatchObject({ scenario: 'empty', seed: 7 })
    expect((await sandbox.store()).bookings.count()).toBe(0)
  })

  it('names what the server refused', async () => {
    await expect(createServerSandbox(options({ scenario: 'nowhere' }))).rejects.toThrow(
      /^Failed to POST \/__sandbox\/reset on http:\/\/localhost:\d+: 400 Unknown scenario \(scenario must be one of: default, empty, large\)$/,
    )
  })

  it('says which members it does not offer', async () => {
    const sandbox = await createServerSandbox(options())
    expect(() => sandbox.factories).toThrow(
      /^Failed to use sandbox\.factories: with sandboxServer the test's session playwright-unit-.+ lives on http:\/\/localhost:\d+; use store\(\), reset\(\), journal, or the control API/,
    )
    expect(() => sandbox.events).toThrow(/^Failed to use sandbox\.events: /)
    expect(() => sandbox.journal.record({} as JournalEntry)).toThrow(/the server records them/)
  })
})

describe('a server with a control token', () => {
  it('is read with the token, and refuses a session without it', async () => {
    const guarded = startTestCli(['--control-token', 'qa-secret'])
    try {
      const url = await guarded.url
      await expect(createServerSandbox(options({ server: url }))).rejects.toThrow(
        `Failed to POST /__sandbox/reset on ${url}: 401`,
      )
      const sandbox = await createServerSandbox(options({ server: url, controlToken: 'qa-secret' }))
      expect((await sandbox.store()).bookings.get('bkg_pending')?.status).toBe('pending')
      expect(sandbox.journal.list()).toEqual([])
    } finally {
      await guarded.stop()
    }
  })
})

describe('a server that is not there', () => {
  it('says so, naming the option and how to start one', async () => {
    const stopped = startTestCli([])
    const url = await stopped.url
    await stopped.stop()
    await expect(createServerSandbox(options({ server: url }))).rejects.toThrow(
      `Failed to reach the sandbox server at ${url} (sandboxServer)`,
    )
  })

  it.each(['localhost:4010', '/api'])('refuses %s, which is not an http(s) URL', async (url) => {
    await expect(createServerSandbox(options({ server: url }))).rejects.toThrow(
      `Failed to use sandboxServer "${url}": not an http(s) URL such as http://localhost:4010`,
    )
  })
})
