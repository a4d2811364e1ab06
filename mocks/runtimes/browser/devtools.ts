/**
 * @module
 * The in-page devtools, loaded only when asked: `import()` of the panels (their own
 * chunk, with Preact), so that a page that does not enable them never fetches them.
 * The panels themselves are the dashboard's (`server/dashboard/app/`).
 */

import type { SandboxDevtools } from '../../../server/dashboard/app/devtools.ts'
import type { SandboxEvents } from '../../core/events.ts'

export {
  SANDBOX_SIGN_IN_EVENT,
  type SandboxSignInDetail,
} from '../../../server/dashboard/app/sign-in-event.ts'
export type { SandboxDevtools }

/** Loads the panels and mounts them, folded, for the sandbox that answers at `baseUrl`. */
export async function loadDevtools(options: {
  sandbox: { events: SandboxEvents }
  baseUrl?: string | undefined
}): Promise<SandboxDevtools> {
  const { mountDevtools } = await import('../../../server/dashboard/app/devtools.ts')
  const base =
    options.baseUrl === undefined || options.baseUrl === '*' ? location.origin : options.baseUrl
  return mountDevtools({ sandbox: options.sandbox, baseUrl: base.replace(/\/$/, '') })
}
