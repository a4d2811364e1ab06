import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { startTestCli, type TestCli } from '../test-support/server/test-cli.ts'

const EXAMPLE = 'examples/scenarios/host-no-bookings.yaml'

const running: TestCli[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})

/** Runs the real `platform-sandbox` command on a free port. */
function run(args: string[], cwd = process.cwd()): TestCli {
  const cli = startTestCli(args, { cwd })
  running.push(cli)
  return cli
}

const json = (url: string, init: RequestInit = {}) =>
  fetch(url, init).then(async (response) => ({
    status: response.status,
    body: await response.json().catch(() => undefined),
  }))

const post = (url: string, body: unknown, session?: string) =>
  json(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(session ? { [SESSION_HEADER]: session } : {}),
    },
    body: JSON.stringify(body),
  })

describe('platform-sandbox --scenario-file', () => {
  it('starts from the example of the scenarios guide, lists it, and resets sessions to it', async () => {
    const cli = run(['--scenario-file', EXAMPLE, '--scenario', 'host-no-bookings'])
    const url = await cli.url
    const scenarios = await json(`${url}/__sandbox/scenarios`)
    expect(scenarios.body).toContainEqual({
      name: 'host-no-bookings',
      description:
        'The host persona with one claimed venue, a welcome notification and no bookings',
    })
    const venues = await json(`${url}/__sandbox/collections/venues`)
    expect(venues.body).toEqual([
      expect.objectContaining({ id: 'ven_canal_loft', ownerId: 'usr_host' }),
    ])

    expect((await post(`${url}/__sandbox/reset`, { scenario: 'default' }, 'qa-1')).status).toBe(200)
    const reset = await post(`${url}/__sandbox/reset`, { scenario: 'host-no-bookings' }, 'qa-1')
    expect(reset).toEqual({
      status: 200,
      body: { session: 'qa-1', scenario: 'host-no-bookings', seed: 20260601 },
    })
    const bookings = await json(`${url}/__sandbox/collections/bookings`, {
      headers: { [SESSION_HEADER]: 'qa-1' },
    })
    expect(bookings.body).toEqual([])
  }, 60_000)

  it('prints every problem of every invalid file and exits 2', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-cli-'))
    const typo = (await readFile(EXAMPLE, 'utf8')).replace(
      'claimStatus: claimed',
      'claimStatus: claimd',
    )
    await writeFile(path.join(folder, 'host-no-bookings.yaml'), typo)
    await writeFile(
      path.join(folder, 'other.json'),
      JSON.stringify({ name: 'other', extends: 'host-no-bookings', chnage: {} }),
    )
    const cli = run(['--scenario-file', folder])
    expect((await cli.exited).code).toBe(2)
    const file = (name: string) => path.join(folder, name)
    expect(cli.stderr()).toBe(
      [
        'platform-sandbox: Invalid scenarios, 2 problems:',
        `  ${file('other.json')}: chnage: unknown field, did you mean "change"?`,
        `  ${file('host-no-bookings.yaml')}: venues[0].claimStatus: expected one of unclaimed, claim_requested, claimed, got "claimd"`,
        '',
      ].join('\n'),
    )
  }, 60_000)

  it('prints, for a typo in the example, exactly the output the scenarios guide shows', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-typo-'))
    await mkdir(path.join(folder, 'scenarios'))
    const typo = (await readFile(EXAMPLE, 'utf8'))
      .replace('claimStatus: claimed', 'claimStatus: claimd')
      .replace('      ownerId: usr_host', '      ownerID: usr_host')
    await writeFile(path.join(folder, 'scenarios/host-no-bookings.yaml'), typo)
    const cli = run(['--scenario-file', 'scenarios/host-no-bookings.yaml'], folder)
    expect((await cli.exited).code).toBe(2)
    expect(cli.stderr()).toMatch(/^platform-sandbox: Invalid scenarios, 3 problems:\n/)
    const readme = await readFile('docs/qa/scenarios.md', 'utf8')
    expect(readme).toContain(`\`\`\`text\n${cli.stderr()}\`\`\``)
  }, 60_000)

  it('exits 2 for a file that is not there, and 1 for an unknown starting scenario', async () => {
    const missing = run(['--scenario-file', 'no/such/file.yaml'])
    expect((await missing.exited).code).toBe(2)
    expect(missing.stderr()).toContain('no/such/file.yaml: cannot read (ENOENT)')
    const unknown = run(['--scenario-file', EXAMPLE, '--scenario', 'host-no-booking'])
    expect((await unknown.exited).code).toBe(1)
    expect(unknown.stderr()).toContain(
      'unknown scenario "host-no-booking" (known: default, empty, large, host-no-bookings)',
    )
  }, 60_000)
})
