import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSandboxEvents } from '../../core/index.ts'
import { devtoolsLoader, loadDevtools } from './devtools-loader.ts'

afterEach(() => vi.restoreAllMocks())

describe('devtoolsLoader', () => {
  it('takes no devtools from undefined, false and null, silently', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(devtoolsLoader(undefined, 'startSandboxWorker')).toBeUndefined()
    expect(devtoolsLoader(false, 'startSandboxWorker')).toBeUndefined()
    expect(devtoolsLoader(null, 'startSandboxWorker')).toBeUndefined()
    expect(warn).not.toHaveBeenCalled()
  })

  it('takes a function as the loader', () => {
    const loader = async () => ({ mountDevtools: vi.fn() })
    expect(devtoolsLoader(loader, 'startSandboxWorker')).toBe(loader)
  })

  it('mounts nothing for `true`, and says what to write instead', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(devtoolsLoader(true, 'startSandboxWorker')).toBeUndefined()
    expect(warn).toHaveBeenCalledOnce()
    expect(warn.mock.calls[0]?.[0]).toContain(
      "startSandboxWorker: `devtools: true` no longer mounts the panel. Pass its loader, devtools: () => import('platform-sandbox/devtools')",
    )
  })

  it('refuses anything else, naming the call and the form it takes', () => {
    expect(() => devtoolsLoader('yes', 'createStorybookSandbox')).toThrow(
      "createStorybookSandbox: devtools must be a function such as devtools: () => import('platform-sandbox/devtools'); got string",
    )
  })
})

describe('loadDevtools', () => {
  it('mounts what the loader gives, for the sandbox and its base URL without a trailing slash', async () => {
    const mounted = { element: {}, open() {}, close() {}, refresh() {}, unmount() {} }
    const mountDevtools = vi.fn(() => mounted as never)
    const sandbox = { events: createSandboxEvents() }
    const result = await loadDevtools(async () => ({ mountDevtools }), {
      sandbox,
      baseUrl: 'http://localhost:4010/api/',
    })
    expect(result).toBe(mounted)
    expect(mountDevtools).toHaveBeenCalledWith({ sandbox, baseUrl: 'http://localhost:4010/api' })
  })

  it('fails with the form to write when the loader gives another module', async () => {
    await expect(
      loadDevtools(async () => ({}) as never, {
        sandbox: { events: createSandboxEvents() },
        baseUrl: 'http://localhost:4010',
      }),
    ).rejects.toThrow(
      "The devtools loader gave no mountDevtools; write devtools: () => import('platform-sandbox/devtools')",
    )
  })
})
