/**
 * @module
 * The panels' calls, in the chosen session, by the sandbox's client through the host they run
 * in: the server's dashboard page or an app's page (whose `fetch` the worker answers); the
 * sign-in event.
 */
import type { JournalEntry } from '../../core/index.ts'
import type { Persona } from '../../model/content.ts'
import {
  createSandboxClient,
  describeRefusal,
  overHttp,
} from '../../sandbox-client/sandbox-client.ts'

/** A JSON answer whose shape the caller knows from the control API. */
// biome-ignore lint/suspicious/noExplicitAny: JSON from the sandbox, typed where it is read.
export type Json = any

export interface Answer<T = Json> {
  status: number
  ok: boolean
  body: T
}

/** Only types cross into the page. */
export type { JournalEntry, Persona }

/**
 * The window event the in-page devtools send when a persona signed in from the panel, for the
 * app around them; `event.detail` is a {@link SandboxSignInDetail}.
 *
 * @example
 * window.addEventListener(SANDBOX_SIGN_IN_EVENT, () => void refreshSession())
 */
export const SANDBOX_SIGN_IN_EVENT = 'platform-sandbox:sign-in'

export interface SandboxSignInDetail {
  /** The persona's key. */
  persona: string
  /** An access token of that persona, for an app that takes it rather than refreshing. */
  accessToken: string
}

/** Where the panels run: how they reach the sandbox, and what the page around them offers. */
export interface ApiHost {
  /** The URL the platform's paths and the control API's (`/__sandbox/faults`) are appended to. */
  apiUrl: string
  /**
   * Calls `onEntries` with the session's journal entries as they are recorded, and
   * `onLive` whenever the feed connects or drops. Returns the function that stops it.
   */
  watchJournal(
    session: string,
    onEntries: (entries: JournalEntry[]) => void,
    onLive: (live: boolean) => void,
  ): () => void
  /** Whether the user may open another session: the page's own session is fixed in an app. */
  chooseSession: boolean
  /** Headers every control call carries: the dashboard's control token. */
  controlHeaders?: () => Record<string, string>
  /** Told once a persona has signed in, so the app around the panels can pick it up. */
  onSignIn?: (persona: Persona, accessToken: string) => void
}

export type Api = ReturnType<typeof createApi>

export function createApi(session: string, host: ApiHost) {
  const client = createSandboxClient({ session, send: overHttp(host.apiUrl) })
  const call = async <T = Json>(
    path: string,
    init?: { method?: string; body?: unknown },
    headers?: Record<string, string>,
  ) => {
    const reply = await client.request<T>(path, headers ? { ...init, headers } : init)
    return { ...reply, ok: reply.status >= 200 && reply.status < 300 } satisfies Answer<T>
  }
  return {
    session,
    host,
    /** A control call: `control('faults')` is `/__sandbox/faults`. */
    control: <T = Json>(path: string, init?: { method?: string; body?: unknown }) =>
      call<T>(`/__sandbox/${path}`, init, host.controlHeaders?.()),
    /** Signs in through the identity provider, which sets the `refresh_token` cookie. */
    signIn: (persona: Persona) => client.signIn(persona, { idp: true }),
  }
}

/** The `details` of a refusal, or its message, as lines to show. */
export function problemsOf(answer: Pick<Answer, 'status' | 'body'>): string[] {
  const { reason, details } = describeRefusal(answer)
  return details.length > 0 ? details : [reason]
}

/** The problems of a refusal on one line. */
export const problemText = (answer: Answer) => problemsOf(answer).join('; ')

/** The value of the field an input event comes from. */
export const fieldValue = (event: Event) => (event.target as HTMLInputElement).value

/** A form's submit handler: `action`, and no page load. */
export const onSubmit = (action: () => unknown) => (event: Event) => {
  event.preventDefault()
  void action()
}
