/**
 * The container image, built from the repository's Dockerfile on a Debian minbase with Node 24
 * (see `podman.ts`) and run with Podman: what `docker run` users and a CI `services:` entry
 * rely on. Skipped, with one line saying why, where Podman cannot run (`.ci/run` installs it
 * when run as root on Debian).
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchors } from '../../fixtures/anchors.ts'
import { personas } from '../../fixtures/personas.ts'
import { freePortSync } from '../../scripts/free-port-sync.ts'
import {
  buildImage,
  containerLogs,
  ensureBaseImage,
  imageSize,
  podman,
  runContainer,
  unavailableReason,
  waitFor200,
} from './podman.ts'

const unavailable = unavailableReason()
if (unavailable) console.log(`container test skipped: ${unavailable}`)

const TOKEN = 'ci-control-token-1'
const MAX_ADDED_BYTES = 27_000_000
const host = personas.find((persona) => persona.key === 'host')!
const log = (line: string) => console.log(`[container] ${line}`)
/** The shipped operations of your own, mounted as a team mounts its folder (no install). */
const operations = fileURLToPath(new URL('../../examples/operations', import.meta.url))

let base: string
let image: string | undefined
const containers: string[] = []
let volume: string | undefined
let bindDir: string | undefined

async function start(args: string[] = []): Promise<{ id: string; url: string }> {
  const port = freePortSync()
  const id = await runContainer(image!, port, args)
  containers.push(id)
  const url = `http://127.0.0.1:${port}`
  await waitFor200(`${url}/__sandbox/health`)
  return { id, url }
}

async function stop(id: string): Promise<{ exitCode: number; logs: string }> {
  // Podman sends SIGTERM, then SIGKILL after 5 s: exit code 0 means the server ended itself.
  await podman(['stop', '--time', '5', id])
  const exitCode = Number(await podman(['inspect', '--format', '{{.State.ExitCode}}', id]))
  return { exitCode, logs: await containerLogs(id) }
}

async function signIn(url: string): Promise<string> {
  const complete = await fetch(`${url}/auth/idp/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: host.idpCode }),
  })
  expect(complete.status).toBe(201)
  const cookie = complete.headers.getSetCookie().find((line) => line.startsWith('refresh_token='))
  expect(cookie).toBeDefined()
  const refresh = await fetch(`${url}/auth/refresh?dryRun=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookie!.split(';')[0]! },
    body: '{}',
  })
  expect(refresh.status).toBe(200)
  return ((await refresh.json()) as { accessToken: string }).accessToken
}

function decline(url: string, accessToken: string) {
  return fetch(`${url}/bookings/${anchors.bookings.pending}/decline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'Fully booked' }),
  })
}

describe.skipIf(unavailable !== undefined)('the container image', () => {
  beforeAll(async () => {
    base = await ensureBaseImage(log)
    log(`building the image on ${base}`)
    image = await buildImage(base)
    volume = await podman(['volume', 'create'])
  }, 600_000)

  afterAll(async () => {
    if (containers.length > 0) await podman(['rm', '--force', ...containers])
    if (volume) await podman(['volume', 'rm', volume])
    if (image) await podman(['rmi', image])
    if (bindDir) rmSync(bindDir, { recursive: true, force: true })
  }, 120_000)

  it('adds at most 27 MB to its base (the Redis client and the metrics included)', async () => {
    const added = (await imageSize(image!)) - (await imageSize(base))
    log(`the image adds ${(added / 1e6).toFixed(1)} MB to ${base}`)
    expect(added).toBeGreaterThan(0)
    expect(added).toBeLessThanOrEqual(MAX_ADDED_BYTES)
  })

  it('answers health, signs a persona in and declines; runs unprivileged; closes the control API; stops with 0 within 5 s', async () => {
    const { id, url } = await start(['-v', `${volume}:/data`])
    const health = await fetch(`${url}/__sandbox/health`)
    expect(await health.json()).toEqual({
      status: 'ok',
      scenario: 'default',
      seed: 20260601,
      usage: {
        sessions: 0,
        maxSessions: 5000,
        journalEntries: 0,
        journalLimit: 1000,
        journalTotalLimit: 100_000,
        faultRules: 0,
      },
    })
    // The image's HEALTHCHECK, run as the engine runs it.
    await podman(['healthcheck', 'run', id])

    const accessToken = await signIn(url)
    const declined = await decline(url, accessToken)
    expect(declined.status).toBe(201)
    expect(await declined.json()).toEqual({ success: true })

    const users = (await podman(['top', id, 'user', 'args'])).split('\n').slice(1)
    expect(users.length).toBeGreaterThan(0)
    for (const line of users) expect(line).toMatch(/^sandbox\s/)

    // Bound to 0.0.0.0 without a token: the control API is closed, health excepted.
    const closed = await fetch(`${url}/__sandbox/collections/bookings`)
    expect(closed.status).toBe(403)
    expect(await closed.json()).toMatchObject({ code: 'FORBIDDEN' })
    expect(await containerLogs(id)).toContain('Control API: closed')

    // A request in flight when the stop comes is answered; then the process exits 0.
    const inFlight = fetch(`${url}/payprov/account-status`, {
      headers: { authorization: `Bearer ${accessToken}`, prefer: 'delay=1500' },
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const [answered, stopped] = await Promise.all([inFlight, stop(id)])
    expect(answered.status).toBe(200)
    expect(stopped.exitCode).toBe(0)
    expect(stopped.logs).toContain('Sandbox closed.')
  }, 120_000)

  it('restarts on the same /data volume with the decline kept, the control API behind its token', async () => {
    const { id, url } = await start([
      '-v',
      `${volume}:/data`,
      '-e',
      `SANDBOX_CONTROL_TOKEN=${TOKEN}`,
    ])
    const refused = await fetch(`${url}/__sandbox/collections/bookings`)
    expect(refused.status).toBe(401)
    const allowed = await fetch(`${url}/__sandbox/collections/bookings`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(allowed.status).toBe(200)
    const bookings = (await allowed.json()) as { id: string; status: string }[]
    expect(bookings.find((booking) => booking.id === anchors.bookings.pending)?.status).toBe(
      'declined',
    )
    // The API agrees: that booking is no longer pending.
    const again = await decline(url, await signIn(url))
    expect(again.status).toBe(409)
    const logs = await containerLogs(id)
    expect(logs).toMatch(
      /State directory \/data: 1 session logs \(each loaded when its session is first used\)/,
    )
    expect(logs).toContain('all but /health need Authorization: Bearer <control token>')
    expect((await stop(id)).exitCode).toBe(0)
  }, 120_000)

  it('opens the control API to anyone with SANDBOX_CONTROL_OPEN, and says so; serves the operations of a mounted SANDBOX_OPERATIONS file', async () => {
    const { id, url } = await start([
      '-e',
      'SANDBOX_CONTROL_OPEN=true',
      '-v',
      `${operations}:/sandbox:ro`,
      '-e',
      'SANDBOX_OPERATIONS=/sandbox/index.mjs',
    ])
    const personasList = await fetch(`${url}/__sandbox/personas`)
    expect(personasList.status).toBe(200)
    expect(await containerLogs(id)).toContain(
      'open without a token to anyone who can reach this port',
    )
    // An operation of your own (public), answered from the container's data.
    const profile = await fetch(`${url}/users/${host.publicId}/profile`)
    expect(profile.status).toBe(200)
    expect(await profile.json()).toEqual({
      publicId: host.publicId,
      displayName: host.displayName,
      roles: host.roles,
      memberSince: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      followers: expect.any(Number),
    })
    const missing = await fetch(`${url}/users/usr_nobody/profile`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ message: 'User "usr_nobody" not found' })
    expect((await stop(id)).exitCode).toBe(0)
  }, 120_000)

  it('says in one line when a bind-mounted /data is not writable by its user, and runs once it is, root file system read-only', async () => {
    bindDir = mkdtempSync(join(tmpdir(), 'platform-sandbox-data-'))
    // mkdtemp's folder belongs to this (root) user, mode 0700: the image's user cannot write it.
    const refused = await runContainer(image!, freePortSync(), ['-v', `${bindDir}:/data`])
    containers.push(refused)
    expect(await podman(['wait', refused])).toBe('2')
    expect(await containerLogs(refused)).toContain(
      'platform-sandbox: cannot write the state directory /data (EACCES): make it writable by user 10001',
    )

    chownSync(bindDir, 10001, 10001)
    const { id, url } = await start(['--read-only', '-v', `${bindDir}:/data`])
    expect((await decline(url, await signIn(url))).status).toBe(201)
    expect(existsSync(join(bindDir, 'sessions'))).toBe(true)
    expect(readdirSync(join(bindDir, 'sessions')).length).toBe(1)
    expect((await stop(id)).exitCode).toBe(0)
  }, 120_000)
})
