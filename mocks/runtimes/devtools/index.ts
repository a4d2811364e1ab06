/**
 * @module
 * The in-page devtools, as their own entry (`platform-sandbox/devtools`): the panels of this
 * folder (also the server's dashboard page) and Preact. Nothing else in the package imports this
 * module, so an app's bundle holds it only where the app hands its import to
 * `startSandboxWorker` or `createStorybookSandbox`:
 *
 * @example
 * await startSandboxWorker({
 *   devtools: import.meta.env.DEV ? () => import('platform-sandbox/devtools') : undefined,
 * })
 */
export {
  type DevtoolsOptions,
  mountDevtools,
  type SandboxDevtools,
} from './mount-devtools.ts'
