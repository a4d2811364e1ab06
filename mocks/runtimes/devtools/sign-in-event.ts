/**
 * @module
 * The window event the in-page devtools send when a persona signed in from the panel, so
 * that the app around them picks the session up through its own cookie flow. Its own
 * module: the browser entry exports it without loading the panels.
 */

/**
 * The name of the event; `event.detail` is a {@link SandboxSignInDetail}.
 *
 * @example
 * window.addEventListener(SANDBOX_SIGN_IN_EVENT, () => void refreshSession())
 */
export const SANDBOX_SIGN_IN_EVENT = 'platform-sandbox:sign-in'

/** What `event.detail` holds. */
export interface SandboxSignInDetail {
  /** The persona's key. */
  persona: string
  /** An access token of that persona, for an app that takes it rather than refreshing. */
  accessToken: string
}
