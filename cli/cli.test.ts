import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { CommanderError } from 'commander'
import { afterEach, describe, expect, it } from 'vitest'
import { personas } from '../fixtures/personas.ts'
import { collectionNames } from '../mocks/model/schemas.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import packageJson from '../package.json' with { type: 'json' }
import { DEFAULT_CORS_ORIGINS } from '../server/options.ts'
import { createProgram, parseCliArguments } from './cli-options.ts'

const bin = fileURLToPath(new URL('../bin/platform-sandbox.mjs', import.meta.url))

/** Parses like the CLI, but throws instead of exiting and keeps the messages. */
function parse(args: string[], env: Record<string, string> = {}) {
  const errors: string[] = []
  const program = createProgram()
    .exitOverride()
    .configureOutput({ writeErr: (text) => errors.push(text), writeOut: () => {} })
  try {
    return { options: parseCliArguments(args, env, program), errors }
  } catch (error) {
    if (error instanceof CommanderError) return { error, errors }
    throw error
  }
}

describe('parseCliArguments', () => {
  it('uses the defaults without flags or environment', () => {
    expect(parse([]).options).toEqual({
      port: 4010,
      host: '127.0.0.1',
      scenario: 'default',
      seed: 20260601,
      strictContract: false,
      corsOrigins: DEFAULT_CORS_ORIGINS,
      quiet: false,
    })
  })

  it('reads every flag', () => {
    const { options } = parse([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--scenario',
      'empty',
      '--seed',
      '7',
      '--strict-contract',
      '--cors-origin',
      'http://a.test,http://b.test:*',
      '--cors-origin',
      'https://c.test',
      '--quiet',
      '--secret',
      's3cret',
    ])
    expect(options).toEqual({
      port: 0,
      host: '0.0.0.0',
      scenario: 'empty',
      seed: 7,
      strictContract: true,
      corsOrigins: ['http://a.test', 'http://b.test:*', 'https://c.test'],
      quiet: true,
      secret: 's3cret',
      // Beyond loopback without a control token.
      controlClosed: true,
    })
  })

  it('reads the environment variables, and flags win over them', () => {
    const env = {
      SANDBOX_PORT: '5000',
      SANDBOX_HOST: '::1',
      SANDBOX_SCENARIO: 'large',
      SANDBOX_SEED: '3',
      SANDBOX_STRICT_CONTRACT: 'true',
      SANDBOX_CORS_ORIGIN: 'http://x.test',
      SANDBOX_QUIET: '1',
      SANDBOX_SECRET: 'from-env',
    }
    expect(parse([], env).options).toEqual({
      port: 5000,
      host: '::1',
      scenario: 'large',
      seed: 3,
      strictContract: true,
      corsOrigins: ['http://x.test'],
      quiet: true,
      secret: 'from-env',
    })
    expect(parse(['--port', '6000', '--scenario', 'empty'], env).options).toMatchObject({
      port: 6000,
      scenario: 'empty',
    })
  })

  it('falls back to PORT after SANDBOX_PORT', () => {
    expect(parse([], { PORT: '7000' }).options?.port).toBe(7000)
    expect(parse([], { PORT: '7000', SANDBOX_PORT: '7001' }).options?.port).toBe(7001)
  })

  it('reads the session cap and the journal limit, flags and variables', () => {
    expect(parse(['--max-sessions', '200', '--journal-limit', '50']).options).toMatchObject({
      maxSessions: 200,
      journalLimit: 50,
    })
    expect(
      parse([], { SANDBOX_MAX_SESSIONS: '20000', SANDBOX_JOURNAL_LIMIT: '10' }).options,
    ).toMatchObject({ maxSessions: 20_000, journalLimit: 10 })
    expect(parse([]).options).not.toHaveProperty('maxSessions')
  })

  it('reads the state directory options: --fsync and --session-ttl, flags and variables', () => {
    expect(
      parse(['--state-dir', 'state', '--fsync', '--session-ttl', '12h']).options,
    ).toMatchObject({ stateDir: 'state', fsync: true, sessionTtlMs: 12 * 3_600_000 })
    expect(
      parse([], { SANDBOX_STATE_DIR: 'state', SANDBOX_FSYNC: 'true', SANDBOX_SESSION_TTL: '30d' })
        .options,
    ).toMatchObject({ fsync: true, sessionTtlMs: 30 * 86_400_000 })
    expect(parse(['--session-ttl', 'off']).options).toMatchObject({ sessionTtlMs: 0 })
    expect(parse([]).options).not.toHaveProperty('fsync')
  })

  it('reads false-like values of boolean variables as false', () => {
    expect(
      parse([], { SANDBOX_QUIET: 'false', SANDBOX_STRICT_CONTRACT: '0' }).options,
    ).toMatchObject({ quiet: false, strictContract: false })
  })

  it.each([
    [['--port', '70000'], 'port must be an integer from 0 to 65535, got "70000"'],
    [['--port', 'http'], 'port must be an integer from 0 to 65535, got "http"'],
    [['--port', '-1'], 'port must be an integer from 0 to 65535'],
    [['--scenario', 'huge'], 'unknown scenario "huge" (known: default, empty, large)'],
    [['--seed', '1.5'], 'seed must be a non-negative integer, got "1.5"'],
    [['--seed', 'abc'], 'seed must be a non-negative integer, got "abc"'],
    [['--cors-origin', 'localhost:3000'], 'CORS origin must look like http://host[:port]'],
    [['--bogus'], "unknown option '--bogus'"],
    [['frobnicate'], "error: unknown command 'frobnicate'\n"],
    [['--max-sessions', '0'], 'max-sessions must be a whole number from 1 to 10000000, got "0"'],
    [['--journal-limit', 'lots'], 'journal-limit must be a whole number from 1 to 10000000'],
    [['--session-ttl', 'banana'], 'session-ttl must be a duration such as 90s, 30m, 12h or 7d'],
    [['--session-ttl', '-1s'], 'session-ttl must be a duration'],
  ])('refuses %j with a clear message', (args, message) => {
    const { error, errors } = parse(args)
    expect(error?.exitCode).toBe(1)
    expect(errors.join('')).toContain(message)
  })

  it.each([
    [
      { SANDBOX_PORT: '99999' },
      "value '99999' from env 'SANDBOX_PORT' is invalid. port must be an integer from 0 to 65535",
    ],
    [{ PORT: 'eighty' }, 'PORT is invalid: port must be an integer'],
    [{ SANDBOX_SCENARIO: 'huge' }, 'SANDBOX_SCENARIO is invalid: unknown scenario "huge"'],
    [
      { SANDBOX_SEED: 'x' },
      "from env 'SANDBOX_SEED' is invalid. seed must be a non-negative integer",
    ],
    [{ SANDBOX_QUIET: 'maybe' }, 'SANDBOX_QUIET is invalid: SANDBOX_QUIET must be true or false'],
  ])('refuses the environment %j with a clear message', (env, message) => {
    const { error, errors } = parse([], env)
    expect(error?.exitCode).toBe(1)
    expect(errors.join('')).toContain(message)
  })
})

/** Runs the real `platform-sandbox` command. */
function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env, SANDBOX_PORT: '', PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (data: string) => {
    stdout += data
  })
  child.stderr.setEncoding('utf8').on('data', (data: string) => {
    stderr += data
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const output = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = stdout.match(pattern)
        if (match) {
          child.stdout.off('data', check)
          resolve(match)
        }
      }
      child.stdout.on('data', check)
      exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${stdout}${stderr}`)))
      check()
    })
  return { child, exited, output, out: () => stdout, err: () => stderr }
}

/** What `docs/reference/cli.md` shows `command --help` printing. */
function documentedHelp(command: string): string {
  const page = readFileSync(new URL('../docs/reference/cli.md', import.meta.url), 'utf8')
  const section = page.split(`## \`${command}\`\n\n\`\`\`text\n`)[1]?.split('\n```\n')[0]
  return `${section}\n`
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

describe('platform-sandbox command', () => {
  it('prints its help with every flag and exits 0', async () => {
    const cli = run(['--help'])
    children.push(cli.child)
    expect(await cli.exited).toBe(0)
    for (const flag of [
      '--port',
      '--host',
      '--scenario',
      '--seed',
      '--strict-contract',
      '--cors-origin',
      '--quiet',
      '--secret',
      'SANDBOX_PORT',
      'PORT',
      'SANDBOX_CORS_ORIGIN',
      'record --target <url>',
      'examples from-har <file.har>',
      'scenario from-har <file.har>',
      'diff --target <url>',
      'state check <dir>',
      'state repair <dir>',
    ]) {
      expect(cli.out()).toContain(flag)
    }
    expect(cli.out()).toBe(documentedHelp('platform-sandbox'))
  }, 60_000)

  it.each([
    [['help', 'record'], 'platform-sandbox record'],
    [['help'], 'platform-sandbox'],
    [['mcp', '--help'], 'platform-sandbox mcp'],
    [['help', 'mcp'], 'platform-sandbox mcp'],
  ])(
    '%j prints the help of %s on stdout, as the reference shows it, and exits 0',
    async (args, command) => {
      const cli = run(args)
      children.push(cli.child)
      expect(await cli.exited).toBe(0)
      expect(cli.out()).toBe(documentedHelp(command))
      expect(cli.err()).toBe('')
    },
    60_000,
  )

  it.each([
    ['frobnicate', ''],
    ['recrod', '(Did you mean record?)\n'],
  ])(
    'names the unknown command %s, with the one meant if close, and exits 1',
    async (name, suggestion) => {
      const cli = run(['--port', '0', name])
      children.push(cli.child)
      expect(await cli.exited).toBe(1)
      expect(cli.err()).toBe(
        `error: unknown command '${name}'\n${suggestion}(run platform-sandbox --help for the options)\n`,
      )
      expect(cli.out()).toBe('')
    },
    60_000,
  )

  it.each([['--version'], ['-V']])(
    'prints the package version for %s and exits 0',
    async (flag) => {
      const cli = run([flag])
      children.push(cli.child)
      expect(await cli.exited).toBe(0)
      expect(cli.out()).toBe(`${packageJson.version}\n`)
    },
    60_000,
  )

  it('exits 1 with a clear message for a bad flag value', async () => {
    const cli = run(['--port', '65536'])
    children.push(cli.child)
    expect(await cli.exited).toBe(1)
    expect(cli.err()).toContain('port must be an integer from 0 to 65535, got "65536"')
  }, 60_000)

  it('serves exactly the records the sources build', async () => {
    const cli = run(['--port', '0', '--quiet'])
    children.push(cli.child)
    const [, url] = await cli.output(/listening on (http:\/\/localhost:\d+)/)
    const store = await createSandbox().store()
    for (const name of collectionNames) {
      const response = await fetch(`${url}/__sandbox/collections/${name}`)
      expect(await response.json(), name).toEqual(JSON.parse(JSON.stringify(store[name].all())))
    }
    // The merged contract travels inside the bundle.
    const contract = await fetch(`${url}/__sandbox/openapi.json`)
    expect(contract.status).toBe(200)
    expect(((await contract.json()) as { paths: object }).paths).toHaveProperty(['/auth/refresh'])
    // The banner names the dashboard and the API reference, and both answer there.
    const [, dashboard] = await cli.output(/Dashboard: +(\S+)/)
    const [, reference] = await cli.output(/API reference: +(\S+)/)
    expect([dashboard, reference]).toEqual([`${url}/__sandbox/`, `${url}/__sandbox/docs`])
    for (const page of [dashboard!, reference!]) {
      const answer = await fetch(page)
      expect([page, answer.status, answer.headers.get('content-type')]).toEqual([
        page,
        200,
        expect.stringContaining('text/html'),
      ])
    }
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
  }, 60_000)

  it('starts, prints how to sign in, and on SIGTERM finishes the request in flight and exits 0', async () => {
    const cli = run(['--port', '0', '--quiet'])
    children.push(cli.child)
    const [, url] = await cli.output(/listening on (http:\/\/localhost:\d+)/)
    const { port } = new URL(url!)
    await cli.output(/Ctrl\+C/)
    const host = personas.find((persona) => persona.key === 'host')!
    expect(cli.out()).toContain(`"code":"${host.idpCode}"`)
    expect(cli.out()).toMatch(/scenario\s+default/)

    const refresh = await fetch(`${url}/auth/refresh?dryRun=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: host.refreshToken }),
    })
    const { accessToken } = (await refresh.json()) as { accessToken: string }

    // A request whose headers the server has read (it answered 100 Continue) but
    // whose body has not been sent yet: in flight when the signal arrives.
    const socket = connect(Number(port), '127.0.0.1')
    let raw = ''
    socket.setEncoding('utf8').on('data', (data: string) => {
      raw += data
    })
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    const continued = new Promise<void>((resolve) => {
      const check = () => {
        if (raw.includes('100 Continue')) {
          socket.off('data', check)
          resolve()
        }
      }
      socket.on('data', check)
    })
    socket.write(
      [
        'POST /users/usr_guest/follow?dryRun=true HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Content-Type: application/json',
        'Content-Length: 2',
        'Expect: 100-continue',
        `Authorization: Bearer ${accessToken}`,
        '',
        '',
      ].join('\r\n'),
    )
    await continued

    cli.child.kill('SIGTERM')
    await cli.output(/SIGTERM received/)

    // No new connections once closing...
    const refused = await new Promise<string>((resolve) => {
      const probe = connect(Number(port), '127.0.0.1')
      probe.once('connect', () => {
        probe.destroy()
        resolve('connected')
      })
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    })
    expect(refused).toBe('ECONNREFUSED')

    // ...but the request in flight is answered in full.
    socket.write('{}')
    await closed
    expect(raw).toMatch(/HTTP\/1\.1 201 Created/)
    expect(raw).toContain('{"success":true}')
    expect(await cli.exited).toBe(0)
    expect(cli.out()).toContain('Sandbox closed.')
  }, 60_000)

  it('on SIGTERM cuts a request still in flight after 4 s instead of waiting for it, and exits 0', async () => {
    const cli = run(['--port', '0', '--quiet'])
    children.push(cli.child)
    const [, url] = await cli.output(/listening on (http:\/\/localhost:\d+)/)
    const host = personas.find((persona) => persona.key === 'host')!
    const refresh = await fetch(`${url}/auth/refresh?dryRun=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: host.refreshToken }),
    })
    const { accessToken } = (await refresh.json()) as { accessToken: string }
    // Answered after 60 s: far beyond what a container stop waits.
    const slow = fetch(`${url}/payprov/account-status`, {
      headers: { authorization: `Bearer ${accessToken}`, prefer: 'delay=60000' },
    }).then(
      (response) => `answered ${response.status}`,
      () => 'cut',
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    cli.child.kill('SIGTERM')
    expect(await slow).toBe('cut')
    expect(await cli.exited).toBe(0)
    expect(cli.out()).toContain('Sandbox closed.')
  }, 30_000)
})
