/**
 * @module
 * The one route table (decision 4): the operations and the control API's rows in one router, so
 * that a request is matched once, an operation or a control call; 404, 405 and `Allow` come
 * from it.
 */
import { type ControlRoute, controlRoutes } from './control-table.ts'
import { notFound } from './errors.ts'
import type { SandboxResponse } from './http.ts'
import type { Operation } from './operation.ts'
import type { RequestContext } from './request-context.ts'
import { createRouter, otherMethodResponse } from './router.ts'

type Routed = Operation | ControlRoute

export type RouteTable = ReturnType<typeof createRouteTable>

/** `extra`: the control rows a runtime answers itself (`controlRoutes`), routed with the core's. */
export function createRouteTable(
  operations: readonly Operation[],
  extra: readonly ControlRoute[] = [],
) {
  const control = [...controlRoutes, ...extra]
  const routes: Routed[] = [...operations, ...control]
  const match = createRouter(
    routes.map((value) => ({ method: value.method, path: value.path, value })),
  )
  // A set, not `'access' in value`: operations differ in shape, and that lookup was measured slower.
  const controls: ReadonlySet<Routed> = new Set(control)
  const methods = [...new Set(routes.map((route) => route.method))]
  const allowed = (path: string) => methods.filter((method) => match(method, path) !== undefined)
  return {
    match,
    isOperation: (routed: Routed): routed is Operation => !controls.has(routed),
    /** The methods `path` has, for a 405 with `Allow`. */
    allowed,
    /** Matches the route of `context` (only the operation's, when the adapter matched it). */
    route(context: RequestContext): void {
      const { method, path, matched } = context
      const found = (matched && match.only(matched.operation, method, path)) ?? match(method, path)
      context.route = found
      if (found && !controls.has(found.value)) {
        context.operation = found.value as Operation
        context.params = found.params
      }
    },
    /** The answer to a request no stage answered: 405 with `Allow`, else 404. */
    unrouted(context: RequestContext): SandboxResponse {
      context.unrouted = true
      const { method, path } = context
      const methods = allowed(path)
      if (methods.length > 0) return otherMethodResponse(method, path, methods)
      return notFound(`Cannot ${method} ${path}`).toResponse()
    },
  }
}
