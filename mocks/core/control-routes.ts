/**
 * @module
 * The paths of the control API and their methods, so that another method on one of
 * them is a 405 with `Allow` rather than a 404.
 */

/** Where the control API is mounted on every runtime. */
export const CONTROL_PREFIX = '/__sandbox'

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

const routes: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^\/health$/, ['GET']],
  [/^\/personas$/, ['GET']],
  [/^\/scenarios$/, ['GET', 'POST']],
  [/^\/snapshots$/, ['GET', 'POST']],
  [/^\/snapshots\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/requests\.har$/, ['GET']],
  [/^\/reset$/, ['POST']],
  [/^\/collections\/[^/]+$/, ['GET']],
  [/^\/requests$/, ['GET', 'DELETE']],
  [/^\/openapi\.json$/, ['GET']],
  [/^\/$/, ['GET']],
  [/^\/sessions$/, ['GET']],
  [/^\/collections$/, ['GET']],
  [/^\/faults$/, ['GET', 'POST', 'DELETE']],
  [/^\/faults\/[^/]+$/, ['DELETE']],
  [/^\/clock$/, ['GET', 'POST', 'DELETE']],
  [/^\/docs$/, ['GET']],
  [/^\/events$/, ['GET']],
]

/** The methods of a control route (the path after `/__sandbox`), `[]` when unknown. */
export function controlMethods(route: string): readonly string[] {
  for (const [pattern, methods] of routes) if (pattern.test(route)) return methods
  return []
}
