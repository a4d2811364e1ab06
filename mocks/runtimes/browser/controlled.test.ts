import { describe, expect, it } from 'vitest'
import { type PageControl, whenControlled } from './controlled.ts'

/** A page whose worker claims it after `claimAfterMs`, or never (`null`). */
function fakePage(claimAfterMs: number | null, stored: Record<string, string> = {}) {
  const listeners = new Set<() => void>()
  const calls: string[] = []
  const container = {
    controller: null as object | null,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  }
  if (claimAfterMs !== null) {
    setTimeout(() => {
      container.controller = {}
      for (const listener of listeners) listener()
    }, claimAfterMs)
  }
  const page = {
    container: container as unknown as PageControl['container'],
    storage: {
      getItem: (key: string) => stored[key] ?? null,
      setItem: (key: string, value: string) => {
        stored[key] = value
      },
      removeItem: (key: string) => {
        delete stored[key]
      },
    },
    reload: () => calls.push('reload'),
    warn: (message: string) => calls.push(`warn: ${message}`),
  } satisfies PageControl
  return { page, calls, stored, listeners }
}

const settled = (promise: Promise<void>, ms: number) =>
  Promise.race([
    promise.then(() => 'resolved'),
    new Promise((resolve) => setTimeout(() => resolve('pending'), ms)),
  ])

describe('a started worker that must control the page', () => {
  it('resolves at once when the page is controlled, and at the claim when it comes', async () => {
    const now = fakePage(0)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await settled(whenControlled(now.page, 50), 20)).toBe('resolved')
    const later = fakePage(10)
    expect(await settled(whenControlled(later.page, 200), 100)).toBe('resolved')
    expect([...now.calls, ...later.calls]).toEqual([])
    expect(later.listeners.size).toBe(0)
  })

  it('reloads a page no worker claims, and never resolves, so nothing renders', async () => {
    const { page, calls, stored } = fakePage(null)
    expect(await settled(whenControlled(page, 10), 100)).toBe('pending')
    expect(calls).toEqual(['reload'])
    expect(stored).toEqual({ 'platform-sandbox:reloaded-uncontrolled': '1' })
  })

  it('reloads once: still uncontrolled after the reload, it warns and goes on', async () => {
    const { page, calls, stored } = fakePage(null, {
      'platform-sandbox:reloaded-uncontrolled': '1',
    })
    expect(await settled(whenControlled(page, 10), 100)).toBe('resolved')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatch(/^warn: \[sandbox\] The page is not controlled/)
    expect(stored).toEqual({})
  })

  it('forgets the reload once a load is controlled', async () => {
    const { page, calls, stored } = fakePage(0, { 'platform-sandbox:reloaded-uncontrolled': '1' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    await whenControlled(page, 10)
    expect([calls, stored]).toEqual([[], {}])
  })
})
