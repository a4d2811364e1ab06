import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatBanner } from '../cli/banner.ts'
import { createProgram, parseCliArguments } from '../cli/cli-options.ts'
import examples from '../examples/operations/index.mjs'
import type { AnyOperationDeclaration } from '../mocks/core/index.ts'
import { type OperationKit, operationKit } from '../mocks/operation-kit.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { startTestServer, type TestServer } from '../test-support/server/test-server.ts'
import { exposureWarning, isLoopbackHost, listenAddress } from './exposure.ts'

describe('binding to an interface other than loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])(
    'prints nothing for loopback %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true)
      expect(exposureWarning(host, 4010, 'open')).toBeUndefined()
    },
  )

  it('warns for 0.0.0.0 opened with --control-open, naming the control API calls that are exposed and the fix', () => {
    const warning = exposureWarning('0.0.0.0', 4010, 'open')
    expect(warning).toContain('listening on http://0.0.0.0:4010')
    expect(warning).toContain('every network interface')
    for (const exposed of [
      '/__sandbox/reset',
      '/__sandbox/collections/:name',
      'refresh',
      '/__sandbox/requests',
      '--control-token',
    ]) {
      expect(warning).toContain(exposed)
    }
  })

  it('warns for a LAN address, saying the control API is protected when it is', () => {
    const warning = exposureWarning('192.168.1.20', 4010, 'token')
    expect(warning).toContain('http://192.168.1.20:4010')
    expect(warning).toContain('requires the control token')
    expect(warning).not.toContain('--control-token <token>')
  })

  it('makes the banner print the address actually bound', () => {
    const banner = formatBanner('http://127.0.0.1:4010', createSandbox(), {
      address: listenAddress('0.0.0.0', 4010),
      control: 'token',
    })
    expect(banner.split('\n')[0]).toBe('Platform API sandbox listening on http://0.0.0.0:4010')
    expect(banner).toContain('from this machine: http://127.0.0.1:4010')
    expect(banner).toContain('Authorization: Bearer <control token>')
    expect(listenAddress('::', 80)).toBe('http://[::]:80')
  })

  it('prints where the dashboard and the API reference are', () => {
    const lines = formatBanner('http://localhost:4010', createSandbox()).split('\n')
    expect(lines).toContain('  Dashboard:     http://localhost:4010/__sandbox/')
    expect(lines).toContain('  API reference: http://localhost:4010/__sandbox/docs')
  })

  it('lists the operations of your own it serves, one a line, or past five their ids', () => {
    const own = (examples as unknown as (kit: OperationKit) => AnyOperationDeclaration[])(
      operationKit,
    )
    const lines = formatBanner('http://localhost:4010', createSandbox({ operations: own }))
    const served = lines.split('\n').filter((line) => /^ {2}operations|^ {4}GET/.test(line))
    expect(served).toEqual([
      '  operations of your own (method, path, operationId)',
      '    GET /host/bookings           listHostBookings',
      '    GET /me/notifications        listMyNotifications',
      '    GET /users/{userId}/profile  getUserProfile',
    ])
    const profile = own[2]!
    const many = [1, 2, 3, 4, 5, 6].map((n) => ({
      ...profile,
      id: `p${n}`,
      path: `/p${n}/{userId}`,
    }))
    const banner = formatBanner('http://localhost:4010', createSandbox({ operations: many }))
    expect(banner.split('\n').filter((line) => line.includes('your own'))).toEqual([
      '  operations of your own (6): p1, p2, p3, p4, p5, p6',
    ])
    expect(formatBanner('http://localhost:4010', createSandbox())).not.toContain('your own')
  })

  it('prints the addresses the dashboard guide says it prints', () => {
    const printed = formatBanner('http://localhost:4010', createSandbox())
      .split('\n')
      .filter((line) => /^ {2}(Dashboard|API reference):/.test(line))
    const guide = readFileSync(new URL('../docs/qa/dashboard.md', import.meta.url), 'utf8')
    expect(guide).toContain(['```text', ...printed, '```'].join('\n'))
  })
})

describe('the control API beyond loopback', () => {
  const closed = (args: string[], env: Record<string, string> = {}) =>
    parseCliArguments(args, env).controlClosed === true

  it('is closed without a control token, open on loopback, with a token or with --control-open', () => {
    expect(closed(['--host', '0.0.0.0'])).toBe(true)
    expect(closed([], { SANDBOX_HOST: '192.168.1.20' })).toBe(true)
    expect(closed([])).toBe(false)
    expect(closed(['--host', 'localhost'])).toBe(false)
    expect(closed(['--host', '0.0.0.0', '--control-token', 'qa-team-token-123'])).toBe(false)
    expect(closed(['--host', '0.0.0.0', '--control-open'])).toBe(false)
    expect(closed([], { SANDBOX_HOST: '0.0.0.0', SANDBOX_CONTROL_OPEN: 'true' })).toBe(false)
    expect(closed([], { SANDBOX_HOST: '0.0.0.0', SANDBOX_CONTROL_OPEN: '0' })).toBe(true)
  })

  it('refuses a control token and --control-open together, naming both', () => {
    const errors: string[] = []
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeErr: (text) => errors.push(text), writeOut: () => {} })
    expect(() =>
      parseCliArguments(
        ['--control-open'],
        { SANDBOX_CONTROL_TOKEN: 'qa-team-token-123' },
        program,
      ),
    ).toThrow()
    expect(errors.join('')).toContain(
      "option '--control-open' cannot be used with environment variable 'SANDBOX_CONTROL_TOKEN'",
    )
  })

  it('says so in the warning and in the banner, with the two ways to use it', () => {
    const warning = exposureWarning('0.0.0.0', 4010, 'closed')!
    expect(warning).toContain('The control API is closed (403): only /__sandbox/health answers')
    expect(warning).toContain('SANDBOX_CONTROL_TOKEN')
    expect(warning).toContain('SANDBOX_CONTROL_OPEN=true')
    const banner = formatBanner('http://127.0.0.1:4010', createSandbox(), {
      address: listenAddress('0.0.0.0', 4010),
      control: 'closed',
    })
    expect(banner).toContain(
      'Control API: closed, listening beyond loopback without a control token',
    )
    expect(banner).toContain('http://127.0.0.1:4010/__sandbox/health answers')
    expect(banner).not.toContain('/collections/:name')
    expect(banner).not.toContain('Dashboard:')
    const opened = formatBanner('http://127.0.0.1:4010', createSandbox(), {
      address: listenAddress('0.0.0.0', 4010),
      control: 'open',
    })
    expect(opened).toContain('open without a token to anyone who can reach this port')
  })
})

describe('a server whose control API is closed', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ controlClosed: true })
  })
  afterAll(() => server.close())

  it('answers every control call but the health check 403, token or not, and changes nothing', async () => {
    const declined = await server.request('/bookings/bkg_pending/decline', {
      as: 'host',
      body: { reason: 'Fully booked' },
    })
    expect(declined.status).toBe(201)
    for (const [path, method, headers] of [
      ['/__sandbox/collections/bookings', 'GET', {}],
      ['/__sandbox/requests', 'GET', {}],
      ['/__sandbox/personas', 'GET', { authorization: 'Bearer qa-team-token-123' }],
      ['/__sandbox/reset', 'POST', {}],
      ['/__sandbox/reset/', 'POST', {}],
      ['/__sandbox/', 'GET', {}],
      ['/__sandbox', 'GET', {}],
      ['/__sandbox/events', 'GET', {}],
      ['/__sandbox/docs', 'GET', {}],
    ] as const) {
      const response = await server.request(path, { method, headers })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(response.body, `${method} ${path}`).toMatchObject({
        message:
          'The control API is closed: this sandbox listens beyond loopback without a control token',
        code: 'FORBIDDEN',
      })
      expect((response.body as { details: string[] }).details[0]).toContain('SANDBOX_CONTROL_OPEN')
    }
    // The reset was refused: the decline is still there.
    const store = await server.sandbox.store()
    expect(store.bookings.get('bkg_pending')?.status).toBe('declined')
  })

  it('keeps GET /__sandbox/health open', async () => {
    const health = await server.request('/__sandbox/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: 'ok', scenario: 'default' })
  })

  it('answers 403 to a control path with 10,000 slashes in it', async () => {
    const response = await server.request(`/__sandbox${'/'.repeat(10_000)}reset`, {
      method: 'POST',
    })
    expect(response.status).toBe(403)
    expect(response.body).toMatchObject({ code: 'FORBIDDEN' })
  })
})

describe('the control token option', () => {
  it('comes from --control-token, or from SANDBOX_CONTROL_TOKEN', () => {
    expect(parseCliArguments(['--control-token', 'flag-token-1'], {}).controlToken).toBe(
      'flag-token-1',
    )
    expect(parseCliArguments([], { SANDBOX_CONTROL_TOKEN: 'env-token-1' }).controlToken).toBe(
      'env-token-1',
    )
    expect(parseCliArguments([], {}).controlToken).toBeUndefined()
  })

  it('refuses a short token with the rule its --help states', () => {
    const errors: string[] = []
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeErr: (text) => errors.push(text), writeOut: () => {} })
    expect(() => parseCliArguments(['--control-token', 'short'], {}, program)).toThrow()
    const rule = 'at least 8 visible ASCII characters without spaces'
    expect(errors.join('')).toContain(`control token must be ${rule}`)
    expect(program.helpInformation().replace(/\s+/g, ' ')).toContain(
      `except the probes GET /__sandbox/health and /__sandbox/ready; ${rule} (env: SANDBOX_CONTROL_TOKEN)`,
    )
  })
})

describe('a server with a control token', () => {
  const token = 'qa-team-token-123'
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ controlToken: token })
  })
  afterAll(() => server.close())

  it('answers control calls without the token with 401 and WWW-Authenticate', async () => {
    for (const [path, method] of [
      ['/__sandbox/collections/users', 'GET'],
      ['/__sandbox/requests', 'GET'],
      ['/__sandbox/personas', 'GET'],
      ['/__sandbox/reset', 'POST'],
      ['/__sandbox/requests', 'DELETE'],
    ] as const) {
      const response = await server.request(path, { method })
      expect(response.status, `${method} ${path}`).toBe(401)
      expect(response.headers['www-authenticate']).toBe('Bearer realm="sandbox control API"')
      expect(response.body).toEqual({
        message: 'The control API requires a token: send Authorization: Bearer <control token>',
        code: 'UNAUTHORIZED',
        details: ['the token is the one given with --control-token or SANDBOX_CONTROL_TOKEN'],
      })
    }
  })

  it('refuses a wrong token and leaves the state alone', async () => {
    const response = await server.request('/__sandbox/reset', {
      method: 'POST',
      headers: { authorization: 'Bearer qa-team-token-124' },
    })
    expect(response.status).toBe(401)
    expect(response.body).toMatchObject({ message: 'Invalid control token' })
  })

  it('answers with the token', async () => {
    const response = await server.request('/__sandbox/collections/users', {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status).toBe(200)
    expect(Array.isArray(response.body)).toBe(true)
  })

  it('closes the live journal stream too', async () => {
    const response = await server.request('/__sandbox/events')
    expect(response.status).toBe(401)
    expect(response.body).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('keeps GET /__sandbox/health open for probes and load balancers', async () => {
    expect((await server.request('/__sandbox/health')).status).toBe(200)
  })

  it('leaves the API operations as they were', async () => {
    const response = await server.request('/payprov/account-status', { as: 'host' })
    expect(response.status).toBe(200)
  })
})
