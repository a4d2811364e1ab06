import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Har } from 'har-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxClient } from '../../mocks/sandbox-client/sandbox-client.ts'
import { readScenarioFiles } from '../../mocks/scenarios/load-files.ts'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import type { ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'
import { learnScenario } from '../../recordings/learn/learn-scenario.ts'
import { createHarFile } from '../../recordings/record/har-file.ts'
import { startRecordProxy } from '../../recordings/record/record-proxy.ts'
import { type RunningServer, startServer } from '../../server/start-server.ts'
import { replayHar } from '../../test-support/recordings/test-replay.ts'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'
import {
  runStagingSession,
  STAGING_BOOKING,
  STAGING_HOST,
  stagingScenario,
  stagingSteps,
} from '../../test-support/recordings/test-staging.ts'

let folder: string
let harPath: string
let har: Har

/** Sends plain requests to `url`, in one session. */
const sender = (url: string, session: string) => {
  const client = createSandboxClient({ baseUrl: url, session })
  return (request: {
    method: string
    url: string
    headers: Record<string, string>
    body?: string
  }) => client.send({ ...request, headers: { ...request.headers, 'x-sandbox-session': session } })
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-learn-'))
  harPath = join(folder, 'staging.har')
  // "Staging": a sandbox holding ids no built-in scenario has, recorded through the proxy.
  const staging = await startServer({
    port: 0,
    quiet: true,
    scenarios: [stagingScenario],
    scenario: 'staging',
  })
  const proxy = await startRecordProxy({
    target: new URL(staging.url),
    file: createHarFile(harPath),
  })
  try {
    const statuses = await runStagingSession(sender(proxy.url, 'recorded'))
    expect(statuses).toEqual(stagingSteps.map((step) => step.status))
  } finally {
    await proxy.close()
    await staging.close()
  }
  har = JSON.parse(readFileSync(harPath, 'utf8')) as Har
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('platform-sandbox scenario from-har', () => {
  let out: string
  let learned: ScenarioFile
  let stdout: string
  let server: RunningServer

  beforeAll(async () => {
    out = join(folder, 'learned.yaml')
    const run = runCli(['scenario', 'from-har', harPath, '--out', out, '--name', 'from-staging'])
    expect(await run.exited).toBe(0)
    stdout = run.stdout()
    learned = parseScenarioText(readFileSync(out, 'utf8'), out) as ScenarioFile
    server = await startServer({
      port: 0,
      quiet: true,
      scenarios: await readScenarioFiles([out]),
      scenario: 'from-staging',
    })
  })
  afterAll(() => server?.close())

  it('covers every exchange but the redacted sign-ins, and names those with the reason', async () => {
    const { covered, exchanges, notCovered } = await learnScenario(har)
    const signIns = har.log.entries.filter((entry) => entry.request.url.includes('/auth/refresh'))
    expect(notCovered.map((one) => one.index)).toEqual(
      har.log.entries.flatMap((entry, index) => (signIns.includes(entry) ? [index] : [])),
    )
    expect(exchanges).toBe(har.log.entries.length)
    expect(stdout).toContain(`Covered ${covered} of ${exchanges} exchanges with the API`)
    for (const { label } of notCovered) {
      expect(stdout).toContain(
        `  ${label}: the refresh token was redacted (record with --no-redact to learn sign-ins)`,
      )
    }
    expect(stdout).toContain(
      `Start it: platform-sandbox --scenario-file ${out} --scenario from-staging`,
    )
  })

  it('writes each record under a comment naming the exchanges it was learned from', () => {
    const text = readFileSync(out, 'utf8')
    const index = har.log.entries.findIndex((entry) =>
      entry.request.url.endsWith(`/bookings/${STAGING_BOOKING}/decline?dryRun=true`),
    )
    expect(text).toMatch(
      new RegExp(
        `# from #${index + 1} POST /bookings/${STAGING_BOOKING}/decline\\?dryRun=true 201;.*\\n\\s+- id: ${STAGING_BOOKING}\\n`,
      ),
    )
    expect(learned.add?.bookings).toContainEqual(
      expect.objectContaining({ id: STAGING_BOOKING, status: 'pending', hostId: STAGING_HOST }),
    )
  })

  it('loaded with --scenario-file, answers every covered exchange with the recorded status, in order', async () => {
    const { notCovered } = await learnScenario(har)
    const skip = new Set(notCovered.map((one) => one.index))
    const replayed = await replayHar(har, learned, skip, sender(server.url, 'replay'))
    expect(replayed).toHaveLength(har.log.entries.length - skip.size)
    expect(replayed.map(({ label, replayed }) => `${label} ${replayed}`)).toEqual(
      replayed.map(({ label, recorded }) => `${label} ${recorded}`),
    )
    // Stateful, not a stub: the booking declined in the recording is declined now.
    const send = sender(server.url, 'replay')
    const again = await replayHar(
      {
        log: {
          ...har.log,
          entries: har.log.entries.filter((entry) =>
            entry.request.url.endsWith(`/bookings/${STAGING_BOOKING}/decline`),
          ),
        },
      },
      learned,
      new Set(),
      send,
    )
    expect(again.map((one) => [one.recorded, one.replayed])).toEqual([[201, 409]])
  })

  it('--at end: a sandbox started on it carries on where the recording stopped', async () => {
    const end = join(folder, 'end.yaml')
    const run = runCli([
      'scenario',
      'from-har',
      harPath,
      '--out',
      end,
      '--name',
      'after',
      '--at',
      'end',
    ])
    expect(await run.exited).toBe(0)
    expect(run.stdout()).toContain(`${end}: scenario "after" (where the recording stopped)`)
    const after = await startServer({
      port: 0,
      quiet: true,
      scenarios: await readScenarioFiles([end]),
      scenario: 'after',
    })
    try {
      const scenario = parseScenarioText(readFileSync(end, 'utf8'), end) as ScenarioFile
      const steps = har.log.entries.filter((entry) =>
        /\/(bookings\/bkg_7f3a9c\/decline|notifications\/ntf_91ab77\/archive)$/.test(
          entry.request.url,
        ),
      )
      const replayed = await replayHar(
        { log: { ...har.log, entries: steps } },
        scenario,
        new Set(),
        sender(after.url, 'next'),
      )
      expect(replayed.map((one) => [one.label, one.recorded, one.replayed])).toEqual([
        [expect.stringContaining(STAGING_BOOKING), 201, 409],
        [expect.stringContaining('ntf_91ab77'), 201, 409],
      ])
    } finally {
      await after.close()
    }
  })

  it('writes nothing for a HAR cut short, with one line naming the file and exit code 2', async () => {
    const cut = join(folder, 'cut.har')
    const text = readFileSync(harPath, 'utf8')
    writeFileSync(cut, text.slice(0, text.length / 2))
    const target = join(folder, 'cut.yaml')
    const run = runCli(['scenario', 'from-har', cut, '--out', target])
    expect(await run.exited).toBe(2)
    const lines = run.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^platform-sandbox: ${cut}: is not valid JSON \\(`))
    expect(existsSync(target)).toBe(false)
  })
})
