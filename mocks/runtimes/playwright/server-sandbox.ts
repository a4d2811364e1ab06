/**
 * @module
 * The fixture's `sandbox` under `sandboxServer`: the test's own session on a running standalone
 * sandbox, named by the `sandbox_session` cookie, read and reset through the control API.
 */
import { randomUUID } from 'node:crypto'
import type { BrowserContext } from '@playwright/test'
import type { Har } from '../../../recordings/har.ts'
import type { HarExportOptions, JournalEntry, RequestJournal } from '../../core/index.ts'
import { isControlPath, SESSION_COOKIE, SESSION_HEADER } from '../../core/index.ts'
import { collectionNames, type DataSet } from '../../model/schemas.ts'
import { createSnapshot, createStore, type Store } from '../../model/store.ts'
import type { ResetOptions, ResetResult, Sandbox } from '../../sandbox.ts'
import { fetchSync } from './fetch-sync.ts'

export interface ServerSandboxOptions {
  /** The standalone sandbox, e.g. `http://localhost:4010`. */
  server: string
  /** The scenario (and seed, default the server's) the session starts from and resets to. */
  scenario: string
  seed: number | undefined
  /** The test's `baseURL`: its host gets the session cookie too, in `context`. */
  baseURL: string | undefined
  context: BrowserContext
  /** A label for the session id, e.g. the worker's index. */
  label: string
  controlToken?: string | undefined
}

/** The members of `Sandbox` a session on a server offers; the others throw. */
type Offered = 'ready' | 'store' | 'reset' | 'resetAll' | 'journal'

// Every other member of `Sandbox`, named once: the type check fails when one is added.
const NOT_OFFERED = Object.keys({
  handle: 0,
  answers: 0,
  route: 0,
  factories: 0,
  snapshots: 0,
  addScenarios: 0,
  uploadScenario: 0,
  dropSession: 0,
  sessionIds: 0,
  describeSessions: 0,
  faults: 0,
  clocks: 0,
  personas: 0,
  operations: 0,
  scenarios: 0,
  settings: 0,
  sessionCount: 0,
  usage: 0,
  openapiDocument: 0,
  replay: 0,
  stages: 0,
  events: 0,
  refreshKept: 0,
  changeControl: 0,
} satisfies Record<Exclude<keyof Sandbox, Offered>, 0>)

/** A one-line description of an answer that is not the expected one. */
function refusal(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: string; details?: string[] }
    const details = body.details?.length ? ` (${body.details.join('; ')})` : ''
    return `${status} ${body.message ?? text}${details}`
  } catch {
    return `${status} ${text.slice(0, 200)}`
  }
}

/** The session's journal, read from the server each time, without the control calls. */
function serverJournal(
  url: (path: string, session: string) => string,
  ownSession: string,
  headers: Record<string, string>,
): RequestJournal {
  const read = (path: string, session: string, method = 'GET'): string => {
    const { status, text } = fetchSync(url(path, session), { method, headers })
    if (status >= 300) {
      throw new Error(`Failed to ${method} ${url(path, session)}: ${refusal(status, text)}`)
    }
    return text
  }
  return {
    limit: 0,
    list(session = ownSession) {
      const entries = JSON.parse(read('/__sandbox/requests', session)) as JournalEntry[]
      return entries.filter((entry) => !isControlPath(entry.path))
    },
    toHar(options: HarExportOptions = {}): Har {
      const har = JSON.parse(read('/__sandbox/requests.har', options.session ?? ownSession)) as Har
      const entries = har.log.entries.filter(
        (entry) => !isControlPath(new URL(entry.request.url).pathname),
      )
      return { ...har, log: { ...har.log, entries } }
    },
    clear(session = ownSession) {
      read('/__sandbox/requests', session, 'DELETE')
    },
    record() {
      throw new Error(
        'Failed to record a journal entry: with sandboxServer, the server records them',
      )
    },
  }
}

/**
 * Starts the test's session on the server, puts its cookie in the browser context for the
 * hosts of `baseURL` and of the server (cookies ignore the port), and returns the `sandbox`.
 */
export async function createServerSandbox(options: ServerSandboxOptions): Promise<Sandbox> {
  // eslint-disable-next-line regexp/no-super-linear-move -- trusted: the server URL is the test's own configuration, never a request's
  const server = options.server.replace(/\/+$/, '')
  const serverUrl = URL.canParse(server) ? new URL(server) : undefined
  if (serverUrl?.protocol !== 'http:' && serverUrl?.protocol !== 'https:') {
    throw new Error(
      `Failed to use sandboxServer "${options.server}": not an http(s) URL such as http://localhost:4010`,
    )
  }
  const session = `playwright-${options.label}-${randomUUID()}`
  const url = (path: string, id: string) => `${server}${path}?session=${encodeURIComponent(id)}`
  const authorization: Record<string, string> = options.controlToken
    ? { authorization: `Bearer ${options.controlToken}` }
    : {}

  const control = async <T>(path: string, id: string, init: RequestInit = {}): Promise<T> => {
    let response: Response
    try {
      response = await fetch(url(path, id), {
        ...init,
        headers: { 'content-type': 'application/json', [SESSION_HEADER]: id, ...authorization },
      })
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error)
      throw new Error(
        `Failed to reach the sandbox server at ${server} (sandboxServer): ${cause}. Start it with npx platform-sandbox, e.g. as Playwright's webServer`,
      )
    }
    const text = await response.text()
    if (!response.ok) {
      throw new Error(
        `Failed to ${init.method ?? 'GET'} ${path} on ${server}: ${refusal(response.status, text)}`,
      )
    }
    return (text === '' ? undefined : JSON.parse(text)) as T
  }

  const reset = async (resetOptions: ResetOptions = {}): Promise<ResetResult> => {
    const { session: id = session, ...asked } = resetOptions
    // As in every runtime, what the options do not name is the test's starting scenario.
    const seed = asked.seed ?? options.seed
    const body =
      asked.snapshot !== undefined
        ? asked
        : { scenario: asked.scenario ?? options.scenario, ...(seed === undefined ? {} : { seed }) }
    const init = { method: 'POST', body: JSON.stringify(body) }
    return control<ResetResult>('/__sandbox/reset', id, init)
  }

  let started = await reset()
  const store = async (id = session): Promise<Store> => {
    const records = await Promise.all(
      collectionNames.map((name) => control<unknown[]>(`/__sandbox/collections/${name}`, id)),
    )
    const data = Object.fromEntries(collectionNames.map((name, i) => [name, records[i]]))
    return createStore(await createSnapshot(started.scenario, started.seed, data as DataSet))
  }

  const hosts = new Set([serverUrl.hostname])
  if (options.baseURL) hosts.add(new URL(options.baseURL).hostname)
  await options.context.addCookies(
    [...hosts].map((domain) => ({
      name: SESSION_COOKIE,
      value: session,
      domain,
      path: '/',
      sameSite: 'Lax' as const,
    })),
  )

  const offered: Pick<Sandbox, Offered> = {
    ready: Promise.resolve(),
    store,
    async reset(resetOptions) {
      const result = await reset(resetOptions)
      if (result.session === session) started = result
      return result
    },
    async resetAll(resetOptions = {}) {
      started = await reset(resetOptions)
      return started
    },
    journal: serverJournal(url, session, authorization),
  }
  for (const name of NOT_OFFERED) {
    Object.defineProperty(offered, name, {
      get() {
        throw new Error(
          `Failed to use sandbox.${name}: with sandboxServer the test's session ${session} lives on ${server}; use store(), reset(), journal, or the control API (${server}/__sandbox/...)`,
        )
      },
    })
  }
  return offered as Sandbox
}
