/**
 * @module
 * The drift report: the same requests (the conformance cases and the recorded examples, writes
 * as `dryRun=true`) sent to the sandbox and to a target backend, and, per operation, where the
 * status, the body's shape or the relevant headers differ.
 */
import { Cookie } from 'tough-cookie'
import { personas } from '../../fixtures/personas.ts'
import { operations } from '../../mocks/operations/table.ts'
import {
  createSandboxClient,
  SandboxRefusal,
  SESSION_HEADER,
  signInWith,
} from '../../mocks/sandbox-client/sandbox-client.ts'
import { conformanceCases } from '../../spec/cases/index.ts'
import { caseRequestInit } from '../../spec/cases/request-init.ts'
import type { CaseRequest, ConformanceCase } from '../../spec/cases/types.ts'
import {
  type RecordedExample,
  recordedExamples,
  recordedRequestUrl,
} from '../../spec/examples/index.ts'

/** A request of the drift report, by the name of the case or example it comes from. */
export type DiffCase = Pick<ConformanceCase, 'name' | 'operationId' | 'request'>

export type DifferenceKind = 'status' | 'body' | 'headers'

export interface Difference {
  operationId: string
  case: string
  kind: DifferenceKind
  detail: string
}

interface Answer {
  status: number
  body: unknown
  mediaType: string
  cookieNames: string[]
}

export const dryRunOperations = new Set(operations.filter((op) => op.dryRun).map((op) => op.id))

/** `url` with `dryRun=true` when the operation takes it and the request does not say. */
function asDryRun(operationId: string, url: string): string {
  if (!dryRunOperations.has(operationId)) return url
  const parsed = new URL(url, 'http://diff.invalid')
  if (parsed.searchParams.has('dryRun')) return url
  parsed.searchParams.set('dryRun', 'true')
  return `${parsed.pathname}${parsed.search}`
}

/** Whether the case could change the target's data: a write without one `dryRun=true`. */
function writesAtTarget(testCase: DiffCase): boolean {
  const method = testCase.request.method.toUpperCase()
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false
  if (!dryRunOperations.has(testCase.operationId)) return true
  const query = new URL(testCase.request.url, 'http://diff.invalid').searchParams
  return query.getAll('dryRun').join(',') !== 'true'
}

/**
 * The conformance cases, then the recorded examples (this package's, then `projectExamples`),
 * writes turned into `dryRun=true`. Cases that ask the sandbox itself for an answer (`Prefer`)
 * are left out: a backend answers them as any other, so comparing the two says nothing.
 */
function diffCases(projectExamples: readonly RecordedExample[]): DiffCase[] {
  const cases: DiffCase[] = conformanceCases.filter(
    ({ request }) => !Object.keys(request.headers ?? {}).some((h) => h.toLowerCase() === 'prefer'),
  )
  const examples = [
    ...recordedExamples.map((example) => ({ example, from: 'recorded example' })),
    ...projectExamples.map((example) => ({ example, from: 'your example' })),
  ]
  for (const { example, from } of examples) {
    const { params, query, ...sent } = example.request
    cases.push({
      name: `${example.operationId}/${example.name} (${from})`,
      operationId: example.operationId,
      request: {
        method: example.method,
        url: recordedRequestUrl(example),
        ...(sent as Partial<CaseRequest>),
      },
    })
  }
  return cases.map(({ name, operationId, request }) => ({
    name,
    operationId,
    request: { ...request, url: asDryRun(operationId, request.url) },
  }))
}

/** Refresh tokens by persona key (`host`, `admin`...). */
type RefreshTokens = Readonly<Record<string, string>>

/** The target did not answer (refused, unknown host, timeout...) after `answered` answers. */
export class TargetUnreachableError extends Error {
  readonly reason: string
  readonly answered: number
  constructor(reason: string, answered: number) {
    super(`cannot reach the target (${reason})`)
    this.name = 'TargetUnreachableError'
    this.reason = reason
    this.answered = answered
  }
}

/** `fetch` counting the target's answers; its network failure a `TargetUnreachableError`. */
function targetFetch(): typeof fetch {
  let answered = 0
  return async (input, init) => {
    let response: Response
    try {
      response = await fetch(input, init)
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
      if (!(error instanceof TypeError) || !cause) throw error
      // A system error by its code (ECONNREFUSED, ENOTFOUND), undici's by its words.
      const code = typeof cause.code === 'string' ? cause.code : ''
      throw new TargetUnreachableError(
        /^E[A-Z]+$/.test(code) ? code : String(cause.message),
        answered,
      )
    }
    answered += 1
    return response
  }
}

function createClient(
  baseUrl: string,
  session: string,
  refreshTokens: RefreshTokens = {},
  reach?: typeof fetch,
) {
  const client = createSandboxClient({ baseUrl, ...(reach ? { fetch: reach } : {}) })
  const tokens = new Map<string, Promise<string>>()
  const refused = new Set<string>()
  const inSession = { [SESSION_HEADER]: session }
  async function send(request: CaseRequest): Promise<Answer> {
    const reply = await client.send({
      url: request.url,
      ...(await caseRequestInit(request, session, accessToken)),
    })
    return {
      status: reply.status,
      body: reply.body,
      mediaType: (reply.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
      cookieNames: reply.headers
        .getSetCookie()
        .map((cookie) => Cookie.parse(cookie)?.key ?? cookie)
        .sort(),
    }
  }
  /** Lenient: a target that refuses the sign-in still gets the request, with an empty token. */
  function accessToken(key: string): Promise<string> {
    let token = tokens.get(key)
    if (!token) {
      const persona = personas.find((candidate) => candidate.key === key)
      const given = Object.hasOwn(refreshTokens, key) ? refreshTokens[key] : undefined
      const refreshToken = given ?? persona?.refreshToken ?? key
      token = signInWith(
        (request) => client.send({ ...request, headers: { ...request.headers, ...inSession } }),
        { key, refreshToken },
      ).catch((error: unknown) => {
        if (!(error instanceof SandboxRefusal)) throw error
        refused.add(key)
        return ''
      })
      tokens.set(key, token)
    }
    return token
  }
  return { send, refused }
}

const kind = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value

/** Where the shape (fields, types; arrays by their first elements) of two bodies differs. */
export function shapeDifferences(sandbox: unknown, target: unknown, path = 'body'): string[] {
  const [left, right] = [kind(sandbox), kind(target)]
  if (left !== right) return [`${path} is ${left} in the sandbox, ${right} at the target`]
  if (left === 'array') {
    const [a, b] = [(sandbox as unknown[])[0], (target as unknown[])[0]]
    if (a === undefined || b === undefined) return []
    return shapeDifferences(a, b, `${path}[]`)
  }
  if (left !== 'object') return []
  const a = sandbox as Record<string, unknown>
  const b = target as Record<string, unknown>
  const differences: string[] = []
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(b, key)) differences.push(`${path}.${key} only in the sandbox`)
    else differences.push(...shapeDifferences(a[key], b[key], `${path}.${key}`))
  }
  for (const key of Object.keys(b)) {
    if (!Object.hasOwn(a, key)) differences.push(`${path}.${key} only at the target`)
  }
  return differences
}

function compare(testCase: DiffCase, sandbox: Answer, target: Answer): Difference[] {
  const found: Difference[] = []
  const add = (kind: DifferenceKind, detail: string) =>
    found.push({ operationId: testCase.operationId, case: testCase.name, kind, detail })
  if (sandbox.status !== target.status) {
    add('status', `status ${sandbox.status} in the sandbox, ${target.status} at the target`)
  }
  for (const line of shapeDifferences(sandbox.body, target.body)) add('body', line)
  if (sandbox.mediaType !== target.mediaType) {
    add(
      'headers',
      `content-type ${sandbox.mediaType || 'none'} in the sandbox, ${target.mediaType || 'none'} at the target`,
    )
  }
  const [a, b] = [sandbox.cookieNames.join(', '), target.cookieNames.join(', ')]
  if (a !== b) {
    add('headers', `set-cookie names [${a}] in the sandbox, [${b}] at the target`)
  }
  return found
}

export interface DiffResult {
  cases: number
  operations: string[]
  differences: Difference[]
  /** The requests left out because they could change the target's data. */
  leftOut: DiffCase[]
  /** Personas whose sign-in the target refused: their requests went with an empty token. */
  signInRefused: string[]
}

/**
 * Sends every case to both, one after the other (the sandbox first), in one session; a
 * `TargetUnreachableError` when the target does not answer one.
 */
export async function diffBackends(options: {
  sandboxUrl: string
  targetUrl: string
  /** Send the requests that could change the target's data too. Default `false`. */
  includeWrites?: boolean
  /** The target's refresh tokens. */
  refreshTokens?: RefreshTokens
  /** Examples of a project's own (`examples from-har` output), sent after the package's. */
  examples?: readonly RecordedExample[]
}): Promise<DiffResult> {
  const session = `diff-${Date.now().toString(36)}`
  const sandbox = createClient(options.sandboxUrl, session)
  const target = createClient(options.targetUrl, session, options.refreshTokens, targetFetch())
  const all = diffCases(options.examples ?? [])
  const leftOut = options.includeWrites ? [] : all.filter(writesAtTarget)
  const cases = all.filter((testCase) => !leftOut.includes(testCase))
  const differences: Difference[] = []
  for (const testCase of cases) {
    const expected = await sandbox.send(testCase.request)
    const actual = await target.send(testCase.request)
    differences.push(...compare(testCase, expected, actual))
  }
  return {
    cases: cases.length,
    operations: [...new Set(cases.map((testCase) => testCase.operationId))],
    differences,
    leftOut,
    signInRefused: [...target.refused].sort(),
  }
}
