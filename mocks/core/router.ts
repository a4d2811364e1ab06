/**
 * @module
 * Matches a method and path against path templates without scanning strings
 * more than once: templates are split into segments up front.
 */

export interface Route<T> {
  method: string
  segments: readonly string[]
  /** Indexes of `{param}` segments and their names. */
  params: readonly (readonly [number, string])[]
  value: T
}

export interface RouteMatch<T> {
  value: T
  params: Record<string, string>
}

export function createRouter<T>(entries: readonly { method: string; path: string; value: T }[]) {
  const byLength = new Map<number, Route<T>[]>()
  for (const { method, path, value } of entries) {
    const segments = path.split('/').slice(1)
    const params: (readonly [number, string])[] = []
    segments.forEach((segment, index) => {
      const match = /^\{(\w+)\}$/.exec(segment)
      if (match) params.push([index, match[1]!])
    })
    const route: Route<T> = { method, segments, params, value }
    const list = byLength.get(segments.length) ?? []
    list.push(route)
    byLength.set(segments.length, list)
  }

  /**
   * The route for `method` and `path`, with raw (still percent-encoded) params;
   * `undefined` when nothing matches.
   */
  return function match(method: string, path: string): RouteMatch<T> | undefined {
    const parts = path.split('/').slice(1)
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop()
    const candidates = byLength.get(parts.length)
    if (!candidates) return undefined
    for (const route of candidates) {
      if (route.method !== method) continue
      let ok = true
      for (let i = 0; i < parts.length; i++) {
        const segment = route.segments[i]!
        if (segment.startsWith('{')) {
          if (parts[i] === '') {
            ok = false
            break
          }
        } else if (segment !== parts[i]) {
          ok = false
          break
        }
      }
      if (!ok) continue
      const params: Record<string, string> = {}
      for (const [index, name] of route.params) params[name] = parts[index]!
      return { value: route.value, params }
    }
    return undefined
  }
}
