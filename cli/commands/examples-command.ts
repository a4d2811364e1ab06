/**
 * @module
 * `platform-sandbox examples from-har <file.har>`: recorded exchanges added to the
 * `<operationId>.json` files of `spec/examples/` (or another folder): each request's path
 * parameters, query, JSON body and persona (or raw `Authorization` header), and the answer.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { dequal } from 'dequal'
import { personas } from '../../fixtures/personas.ts'
import { createRouter } from '../../mocks/core/index.ts'
import { operations } from '../../mocks/operations/table.ts'
import type { Har } from '../../recordings/har.ts'
import { bearerSubject } from '../../recordings/record/redact.ts'
import { parseJson, readRecordings } from '../../recordings/replay/recordings.ts'
import {
  type RecordedExampleFile,
  type RecordedRequest,
  recordedExampleFileSchema,
} from '../../spec/examples/index.ts'
import { checkWritable, readJsonFile, UsageError, writeWhole } from './input.ts'

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
  let name = base
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}x${n}`
  return name
}

export interface ExamplesCommandOptions {
  operation?: string
  outDir: string
}

function readExisting(dir: string, operationId: string): RecordedExampleFile | undefined {
  const path = join(dir, `${operationId}.json`)
  if (!existsSync(path)) return undefined
  const parsed = recordedExampleFileSchema.safeParse(readJsonFile(path))
  if (parsed.success) return parsed.data
  const problem = parsed.error.issues[0]?.message
  throw new UsageError(`${path}: not an examples file (${problem}); nothing written`)
}

/**
 * Adds the exchanges of `harPath` (only `operation`'s when given) to the example files, once
 * each, and names those it skips; every file is checked before any is written.
 */
export function runExamplesFromHar(harPath: string, options: ExamplesCommandOptions): void {
  const document = readJsonFile(harPath)
  try {
    if (document === null || typeof document !== 'object' || !('log' in document)) {
      throw new Error('not a HAR document (no "log")')
    }
    readRecordings(document)
  } catch (error) {
    throw new UsageError(`${harPath}: ${(error as Error).message}`)
  }
  const { outDir } = options
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    throw new UsageError(`${outDir}: cannot be written (not a directory)`)
  }
  const files = new Map<string, RecordedExampleFile>()
  const added = new Map<string, number>()
  const skipped: string[] = []
  for (const [index, entry] of (document as Har).log.entries.entries()) {
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
    const file = files.get(operation.id) ??
      readExisting(outDir, operation.id) ?? {
        operationId: operation.id,
        // The built-in operations: a GET or a POST.
        method: operation.method as 'GET' | 'POST',
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
  if (added.size > 0 && !existsSync(outDir)) {
    try {
      mkdirSync(outDir, { recursive: true })
    } catch (error) {
      throw new UsageError(
        `${outDir}: cannot be created (${(error as NodeJS.ErrnoException).code})`,
      )
    }
    console.log(`${outDir}: created`)
  }
  for (const operationId of added.keys()) checkWritable(join(outDir, `${operationId}.json`))
  for (const [operationId, count] of added) {
    const path = join(outDir, `${operationId}.json`)
    writeWhole(path, `${JSON.stringify(files.get(operationId), null, 2)}\n`)
    console.log(`${path}: ${count} example${count === 1 ? '' : 's'} added`)
  }
  if (added.size === 0) console.log('No new examples.')
  for (const line of skipped) console.log(`  skipped ${line}`)
}
