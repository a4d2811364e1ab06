/**
 * @module
 * A suite no one here wrote: @apideck/portman turns an OpenAPI document into a Postman
 * collection with its default contract tests (status 2xx, JSON content type, JSON body, body
 * matches the documented schema), and newman runs that collection's requests. Used by
 * `portman.test.ts` on the app document (`platform-sandbox/openapi.app.json`); nothing in the
 * collection is changed: each run only sets the collection's variables (`baseUrl`,
 * `bearerToken`) from outside.
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'

const require = createRequire(import.meta.url)
const PORTMAN_BIN = resolve(
  dirname(require.resolve('@apideck/portman/package.json')),
  'bin',
  'portman',
)

/** The part of a Postman collection (format 2.1) the test reads. */
export interface PostmanItem {
  id: string
  name: string
  item?: PostmanItem[]
  event?: Array<{ listen: string; script: { exec: string[] } }>
  request?: {
    method: string
    url: { path?: string[] }
    auth?: { type: string }
  }
}

export interface PostmanCollection {
  item: PostmanItem[]
  [key: string]: unknown
}

/**
 * Runs the Portman CLI with its default configuration (no overwrites) on `documentPath` and
 * returns the collection it writes. Portman keeps its working files under `cwd`.
 */
export async function generateCollection(
  documentPath: string,
  cwd: string,
): Promise<PostmanCollection> {
  const output = resolve(cwd, 'collection.json')
  const child = spawn(
    process.execPath,
    [PORTMAN_BIN, '--local', documentPath, '--output', output],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let log = ''
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString()
  })
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail)
    child.on('close', done)
  })
  if (code !== 0) throw new Error(`Failed to run Portman (exit ${code}):\n${log.slice(-2000)}`)
  return JSON.parse(await readFile(output, 'utf8')) as PostmanCollection
}

/** The requests of a collection, folders flattened. */
export function requestsOf(items: readonly PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? requestsOf(item.item) : item.request ? [item] : []))
}

/** One assertion of a newman run. */
export interface AssertionResult {
  assertion: string
  error?: { message: string }
}

export interface RequestResult {
  status: number | undefined
  body: string
  assertions: AssertionResult[]
  failures: string[]
}

interface NewmanSummary {
  run: {
    executions: Array<{
      response?: { code: number; stream?: Buffer }
      assertions?: AssertionResult[]
    }>
    failures: Array<{ error: { message: string }; source?: { name?: string } }>
  }
}

interface Newman {
  run(
    options: Record<string, unknown>,
    callback: (error: Error | null, summary: NewmanSummary) => void,
  ): void
}

const newman = require('newman') as Newman

/**
 * Runs the one request `itemId` of `collection` with newman, the variables given as its
 * environment, and returns its status, body and assertions.
 */
export function runRequest(
  collection: PostmanCollection,
  itemId: string,
  variables: Record<string, string>,
): Promise<RequestResult> {
  return new Promise((done, fail) => {
    newman.run(
      {
        collection,
        folder: itemId,
        envVar: Object.entries(variables).map(([key, value]) => ({ key, value })),
        reporters: [],
        timeoutRequest: 10_000,
      },
      (error, summary) => {
        if (error) return fail(error)
        const [execution] = summary.run.executions
        done({
          status: execution?.response?.code,
          body: execution?.response?.stream?.toString('utf8') ?? '',
          assertions: execution?.assertions ?? [],
          failures: summary.run.failures.map(
            (failure) => `${failure.source?.name ?? ''}: ${failure.error.message}`,
          ),
        })
      },
    )
  })
}
