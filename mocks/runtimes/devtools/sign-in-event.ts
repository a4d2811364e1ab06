/**
 * @module
 * The window event the in-page devtools send when a persona signed in from the panel, for the
 * app around them; its own module, so that the browser entry exports it without the panels.
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
