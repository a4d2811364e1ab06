/**
 * @module
 * The dashboard's calls: control API paths relative to the page (`/__sandbox/`),
 * platform operations one level up, every call in the chosen session.
 */

/** A JSON answer whose shape the caller knows from the control API. */
// biome-ignore lint/suspicious/noExplicitAny: JSON from the sandbox, typed where it is read.
export type Json = any

export interface Answer<T = Json> {
  status: number
  ok: boolean
  body: T
}

/** What the journal holds; only types cross into the page. */
export type { JournalEntry } from '../../../mocks/core/journal.ts'

export interface Persona {
  key: string
  publicId: string
  displayName: string
  email: string
  roles: string[]
  refreshToken: string
  idpCode: string
}

export type Api = ReturnType<typeof createApi>

export function createApi(session: string) {
  async function call<T = Json>(path: string, init: { method?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = { 'x-sandbox-session': session }
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    const text = await response.text()
    return {
      status: response.status,
      ok: response.ok,
      body: (text ? JSON.parse(text) : undefined) as T,
    } satisfies Answer<T>
  }
  return {
    session,
    /** A control call: `control('faults')` is `/__sandbox/faults`. */
    control: <T = Json>(path: string, init?: { method?: string; body?: unknown }) =>
      call<T>(path, init),
    /** A platform operation: `operation('/auth/refresh')`. */
    operation: <T = Json>(path: string, init?: { method?: string; body?: unknown }) =>
      call<T>(`..${path}`, init),
  }
}

/** The `details` of a refusal, or its message, as lines to show. */
export function problemsOf(answer: Answer): string[] {
  const body = answer.body as { message?: string; details?: string[] } | undefined
  return body?.details ?? [body?.message ?? `Failed with status ${answer.status}`]
}
