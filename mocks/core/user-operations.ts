/**
 * @module
 * Operations of your own as rows of the one operations table: each declaration checked (every
 * problem named at once), its path's twin among the built-in ones left out with a warning, and
 * made an `Operation` whose answer runs after the declared preconditions, on the session's store
 * (a copy under `dryRun`), its body checked against the declared response schema.
 */
import { captureSnapshot, createStore, type Store } from '../model/store.ts'
import { nonEmpty, z } from '../model/zod.ts'
import { answerCheck, loadQuickChecks } from './answer-check.ts'
import { SandboxError } from './errors.ts'
import type { Operation, OperationContext, OperationOutcome, RecordedAnswer } from './operation.ts'
import { type EffectContext, runRules } from './preconditions.ts'
import type { AnyOperationDeclaration, Responses } from './user-operation.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const ROLES = ['admin', 'host', 'guest', 'ambassador']

/** Declarations the sandbox refuses: every problem, each naming its operation. */
export class OperationDeclarationError extends Error {
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(`Invalid operations: ${problems.join('; ')}`)
    this.problems = problems
    this.name = 'OperationDeclarationError'
  }
}

const isSchema = (value: unknown) => typeof value === 'object' && value !== null && '_zod' in value
const isObjectSchema = (value: unknown) =>
  isSchema(value) && (value as z.core.$ZodType)._zod.def.type === 'object'
/** A template's shape: `/a/{x}` and `/a/{y}` are one route. */
const routeOf = (method: string, path: string) => `${method} ${path.replace(/\{\w+\}/g, '{}')}`
const successStatus = (declaration: AnyOperationDeclaration) =>
  Object.keys(declaration.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort()[0]

/** What is wrong with one declaration (none: nothing). */
function problemsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['must be an object (defineOperation)']
  const d = value as Partial<AnyOperationDeclaration>
  const problems: string[] = []
  const need = (ok: boolean, problem: string) => ok || problems.push(problem)
  need(
    typeof d.id === 'string' && /^[A-Za-z]\w{0,63}$/.test(d.id),
    'id must be a word (letters, digits, _)',
  )
  need(METHODS.includes(d.method as string), `method must be one of: ${METHODS.join(', ')}`)
  const path = typeof d.path === 'string' ? d.path : ''
  need(/^\/[\w\-./{}]*$/.test(path), 'path must start with / and hold only URL path characters')
  need(!/^\/__sandbox(\/|$)/.test(path), 'path must not be under /__sandbox (the control API)')
  need(typeof d.summary === 'string' && d.summary !== '', 'summary is required')
  const { auth } = d
  need(
    auth === 'public' ||
      auth === 'signedIn' ||
      ROLES.includes((auth as { role?: string } | undefined)?.role ?? ''),
    `auth must be 'public', 'signedIn' or { role } with a role of: ${ROLES.join(', ')}`,
  )
  need(d.params === undefined || isObjectSchema(d.params), 'params must be a zod object schema')
  for (const name of path.match(/\{\w+\}/g) ?? []) {
    const shape = (d.params as { _zod?: { def: { shape?: object } } })?._zod?.def.shape
    need(!shape || Object.hasOwn(shape, name.slice(1, -1)), `params has no field ${name}`)
  }
  need(d.query === undefined || isObjectSchema(d.query), 'query must be a zod object schema')
  need(d.body === undefined || isSchema(d.body), 'body must be a zod schema')
  need(d.body === undefined || d.method !== 'GET', 'body is not taken by a GET')
  need(typeof d.answer === 'function', 'answer must be a function')
  need(d.requires === undefined || Array.isArray(d.requires), 'requires must be an array')
  const responses = Object.entries(d.responses ?? {})
  need(responses.length > 0, 'responses is required, with a 2xx status')
  for (const [status, response] of responses) {
    need(/^[1-5]\d\d$/.test(status), `responses.${status} is not an HTTP status`)
    const schema = (response as { schema?: unknown })?.schema
    need(
      schema === undefined || isSchema(schema),
      `responses.${status}.schema must be a zod schema`,
    )
  }
  if (responses.length > 0)
    need(successStatus(d as AnyOperationDeclaration) !== undefined, 'responses has no 2xx status')
  return problems
}

/**
 * `declarations` as rows of the table after `builtIns`; throws an `OperationDeclarationError`
 * naming every problem. One on a built-in's method and path is left out: the built-in answers.
 */
export function userOperations(
  declarations: unknown,
  builtIns: readonly Operation[],
  checkAnswers = true,
): Operation[] {
  if (!Array.isArray(declarations))
    throw new OperationDeclarationError(['operations must be an array'])
  const problems: string[] = []
  const builtInRoutes = new Map(builtIns.map((o) => [routeOf(o.method, o.path), o.id]))
  const taken = new Map<string, string>()
  const ids = new Set(builtIns.map((o) => o.id))
  const kept: AnyOperationDeclaration[] = []
  for (const [index, declaration] of (declarations as AnyOperationDeclaration[]).entries()) {
    const id = declaration?.id
    const name = typeof id === 'string' ? `operation "${id}"` : `operations[${index}]`
    const own = problemsOf(declaration)
    if (own.length > 0) {
      problems.push(...own.map((problem) => `${name}: ${problem}`))
      continue
    }
    const { method, path } = declaration
    const route = routeOf(method, path)
    const builtIn = builtInRoutes.get(route)
    if (builtIn !== undefined) {
      console.warn(
        `[sandbox] ${name}: ${method} ${path} is the built-in operation ${builtIn}, which answers: retire this proposal`,
      )
      continue
    }
    const twin = taken.get(route)
    if (twin !== undefined) {
      problems.push(`${name}: ${method} ${path} is declared by operation "${twin}" too`)
      continue
    }
    if (ids.has(id)) {
      problems.push(`${name}: id "${id}" is taken`)
      continue
    }
    taken.set(route, id)
    ids.add(id)
    kept.push(declaration)
  }
  if (problems.length > 0) throw new OperationDeclarationError(problems)
  if (checkAnswers && kept.length > 0) loadQuickChecks()
  return kept.map((declaration) => toOperation(declaration, checkAnswers))
}

function toOperation(d: AnyOperationDeclaration, checkAnswers: boolean): Operation {
  const status = successStatus(d)!
  const schema = (d.responses as Responses)[status]?.schema
  const check = checkAnswers && schema ? answerCheck(schema) : undefined
  const names = (d.path.match(/\{\w+\}/g) ?? []).map((name: string) => name.slice(1, -1))
  const examples: Record<string, RecordedAnswer> = {}
  for (const [code, response] of Object.entries(d.responses as Responses)) {
    for (const [name, body] of Object.entries(response.examples ?? {})) {
      examples[name] = { status: Number(code), body }
    }
  }
  return {
    id: d.id,
    row: 0,
    method: d.method,
    path: d.path,
    auth: d.auth === 'public' ? 'public' : 'user',
    role: typeof d.auth === 'object' ? d.auth.role : undefined,
    dryRun: d.dryRun === true && d.method !== 'GET',
    successStatus: status,
    params:
      d.params ?? z.object(Object.fromEntries(names.map((name: string) => [name, nonEmpty()]))),
    body: d.body,
    query: d.query,
    examples,
    proposed: { summary: d.summary, declaration: d },
    run: (context) => answerOf(d, status, check, context as OperationContext<never, never>),
  }
}

/** The answer of `d`: the preconditions, then its `answer` (a write's after the log's commit). */
async function answerOf(
  d: AnyOperationDeclaration,
  status: number,
  check: ReturnType<typeof answerCheck> | undefined,
  context: OperationContext<Record<string, string>, Record<string, unknown>>,
): Promise<OperationOutcome> {
  const { params, body, caller, now, dryRun } = context
  const input: EffectContext = {
    params,
    body,
    caller: caller?.publicId ?? '',
    store: context.store,
    now,
    records: {},
    keys: {},
  }
  if (d.requires?.length) runRules({ requires: d.requires, answer: undefined }, input)
  const outcome: OperationOutcome = { body: undefined }
  const answer = async (store: Store) => {
    let answered: unknown
    try {
      answered = await d.answer({
        params,
        body,
        caller,
        now,
        dryRun,
        query: context.checkedQuery ?? {},
        collections: store,
        records: input.records,
        nextId: (prefix: string) => store.nextId(prefix),
      })
    } catch (error) {
      if (error instanceof SandboxError) throw error
      console.error(`[sandbox] operation "${d.id}" failed:`, error)
      const message = error instanceof Error ? error.message : String(error)
      throw new SandboxError(500, `Operation "${d.id}" failed: ${message}`)
    }
    outcome.body = answered
    if (check) outcome.problem = problemOf(d, status, check, answered)
  }
  if (d.method === 'GET') await answer(context.store)
  // A dry run's writes go to a copy of the session, dropped with it.
  else if (dryRun) await answer(createStore(captureSnapshot(context.store, 'dryRun')))
  else outcome.apply = () => answer(context.store)
  return outcome
}

/** What the declared schema of `status` refuses in `body`, said on stderr too. */
function problemOf(
  d: AnyOperationDeclaration,
  status: number,
  check: ReturnType<typeof answerCheck>,
  body: unknown,
): string | undefined {
  const issues = check(body)
  if (!issues) return undefined
  const fields = issues.map(
    (issue) => `${['body', ...issue.path.map(String)].join('.')}: ${issue.message}`,
  )
  const problem = `Operation "${d.id}" answered ${status} with a body its declared schema refuses: ${fields.join('; ')}`
  console.error(`[sandbox] ${problem}`)
  return problem
}
