/**
 * @module
 * What the control API needs of a sandbox: a narrow view, given to it by the core, so
 * the control API does not depend on the core that calls it.
 */
import type { Sandbox } from './sandbox-types.ts'

export type ControlContext = Pick<
  Sandbox,
  | 'ready'
  | 'settings'
  | 'personas'
  | 'operations'
  | 'scenarios'
  | 'reset'
  | 'store'
  | 'journal'
  | 'faults'
  | 'clocks'
  | 'snapshots'
  | 'addScenarios'
  | 'sessionIds'
  | 'describeSessions'
  | 'dropSession'
  | 'usage'
  | 'openapiDocument'
>
