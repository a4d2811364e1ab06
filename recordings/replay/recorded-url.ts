/**
 * @module
 * How a recorded request's URL is cut into path and query: the same for a recording read
 * from a parsed document and for one indexed from a file's bytes.
 */

/** Path and query string of an absolute URL, as written (no normalisation). */
export function splitRecordedUrl(url: string): { path: string; search: string } | undefined {
  const scheme = url.indexOf('://')
  if (scheme <= 0) return undefined
  const slash = url.indexOf('/', scheme + 3)
  let rest = slash === -1 ? '/' : url.slice(slash)
  const hash = rest.indexOf('#')
  if (hash !== -1) rest = rest.slice(0, hash)
  const mark = rest.indexOf('?')
  return mark === -1
    ? { path: rest, search: '' }
    : { path: rest.slice(0, mark), search: rest.slice(mark) }
}
