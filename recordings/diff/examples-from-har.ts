/**
 * @module
 * Recorded exchanges (HAR) into entries of `spec/examples/<operationId>.json`: each request's
 * path parameters, query, JSON body and persona (or raw `Authorization` header), and the answer.
 */
import { dequal } from 'dequal'
import { personas } from '../../fixtures/personas.ts'
import { createRouter } from '../../mocks/core/router.ts'
import { operations } from '../../mocks/operations/table.ts'
import type { RecordedExampleFile, RecordedRequest } from '../../spec/examples/index.ts'
import type { HarEntry } from '../har.ts'
import { bearerSubject } from '../replay/bearer-subject.ts'
import { parseJson } from '../replay/recordings.ts'

type Example = RecordedExampleFile['examples'][string]

const router = createRouter(operations.map((operation) => ({ ...operation, value: operation })))

const NOT_JSON = Symbol('not JSON')

/** A body's JSON value: `undefined` for none, `NOT_JSON` for one that is not JSON. */
function bodyJson(text = ''): unknown {
  if (text === '') return undefined
  const value = parseJson(text)
  return value === undefined ? NOT_JSON : value
}

function uniqueName(taken: Record<string, unknown>, status: number): string {
  const base = `recorded${status}`
  if (!Object.hasOwn(taken, base)) return base
  let n = 2
  while (Object.hasOwn(taken, `${base}x${n}`)) n += 1
  return `${base}x${n}`
}

/**
 * Adds the HAR `entries` (only `operation`'s when given) to `existing` example files by
 * operationId; an exchange identical to an existing example is not added twice. Gives the files,
 * how many examples each got, and the entries left out with why.
 */
export function examplesFromHar(
  entries: readonly HarEntry[],
  existing: ReadonlyMap<string, RecordedExampleFile>,
  options: { operation?: string } = {},
) {
  const files = new Map(existing)
  const added = new Map<string, number>()
  const skipped: string[] = []
  for (const [index, entry] of entries.entries()) {
    const where = `#${index + 1} ${entry.request.method} ${entry.request.url}`
    const url = new URL(entry.request.url)
    if (url.pathname.startsWith('/__sandbox')) continue
    const method = entry.request.method.toUpperCase()
    const routed = router(method, url.pathname)
    if (!routed) {
      skipped.push(`${where}: no operation of the contract`)
      continue
    }
    const { value: operation, params } = routed
    if (options.operation !== undefined && operation.id !== options.operation) continue
    const sent = bodyJson(entry.request.postData?.text)
    const { text, encoding } = entry.response.content
    const answered = encoding === 'base64' ? NOT_JSON : bodyJson(text)
    if (sent === NOT_JSON || answered === NOT_JSON) {
      skipped.push(`${where}: the request or the answer body is not JSON`)
      continue
    }

    const request: RecordedRequest = {}
    if (Object.keys(params).length > 0) {
      request.params = Object.fromEntries(
        Object.entries(params).map(([name, value]) => [name, decodeURIComponent(value)]),
      )
    }
    if (url.searchParams.size > 0) request.query = Object.fromEntries(url.searchParams)
    const header = (name: string) =>
      entry.request.headers.find((h) => h.name.toLowerCase() === name)?.value
    const authorization = header('authorization')
    if (authorization !== undefined) {
      // A redacted bearer token still names its subject: `Bearer [REDACTED sub=usr_host]`.
      const sub = bearerSubject(authorization)
      const persona = personas.find((candidate) => sub !== undefined && candidate.publicId === sub)
      if (persona) request.as = persona.key
      else request.authorization = authorization
    }
    const cookie = header('cookie')
    if (cookie !== undefined) request.headers = { cookie }
    if (sent !== undefined) request.body = sent

    const example: Example = {
      summary: `Recorded ${method} ${url.pathname}${url.search}, answered ${entry.response.status}`,
      request,
      response: {
        status: entry.response.status,
        ...(answered === undefined ? {} : { body: answered }),
      },
    }
    const file = files.get(operation.id) ?? {
      operationId: operation.id,
      method: operation.method,
      path: operation.path,
      examples: {},
    }
    const same = (other: Example) =>
      dequal([other.request, other.response], [example.request, example.response])
    if (Object.values(file.examples).some(same)) continue
    files.set(operation.id, {
      ...file,
      examples: { ...file.examples, [uniqueName(file.examples, example.response.status)]: example },
    })
    added.set(operation.id, (added.get(operation.id) ?? 0) + 1)
  }
  return { files, added, skipped }
}
