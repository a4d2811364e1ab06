/**
 * @module
 * The journal's tools: query a session's requests and explain one (sent, answered, refused by
 * which rule), from the control API's journal views, so they see what the dashboard sees.
 */
import type { Entry, Har } from 'har-format'
import { z } from 'zod'
import type { JournalEntry } from '../../mocks/core/index.ts'
import { readBody } from '../../mocks/sandbox-client/sandbox-client.ts'
import {
  controlResult,
  describeRefusal,
  refusalError,
  type SandboxTool,
  sessionArgument,
  type ToolCall,
  ToolFailure,
  toolError,
  toolResult,
} from './tool.ts'

/** A journal entry with the id `explainRequest` takes: its place in the session's journal. */
type NumberedEntry = JournalEntry & { id: string }

async function sessionJournal(call: ToolCall): Promise<NumberedEntry[]> {
  const answer = await call.send({
    method: 'GET',
    url: `/__sandbox/requests?session=${encodeURIComponent(call.session)}`,
  })
  if (answer.status !== 200)
    throw new ToolFailure(refusalError(answer, 'Failed to read the journal'))
  return (answer.body as JournalEntry[]).map((entry, index) => ({ id: `r${index + 1}`, ...entry }))
}

const instant = z.iso.datetime({ offset: true })

/** A HAR body: its JSON value, else its text, else `null`. */
const bodyOf = (text: string | undefined) => readBody(text ?? '') ?? null

function headerObject(headers: Entry['request']['headers']): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]))
}

/** The HAR entry of a journal entry: the same request, answered at the same time. */
function exchangeOf(har: Har, entries: NumberedEntry[], wanted: NumberedEntry): Entry | undefined {
  const key = (method: string, path: string, status: number, time: string) =>
    `${method} ${path} ${status} ${time}`
  const wantedKey = key(wanted.method, wanted.path, wanted.status, wanted.time)
  // Entries alike in all of these are told apart by their order.
  const before = entries
    .slice(0, entries.indexOf(wanted) + 1)
    .filter((entry) => key(entry.method, entry.path, entry.status, entry.time) === wantedKey)
  const matches = har.log.entries.filter(
    (candidate) =>
      key(
        candidate.request.method,
        new URL(candidate.request.url).pathname,
        candidate.response.status,
        candidate.startedDateTime,
      ) === wantedKey,
  )
  return matches[Math.min(before.length, matches.length) - 1]
}

export const journalTools: readonly SandboxTool[] = [
  {
    name: 'queryJournal',
    title: 'Query the journal',
    description:
      'The session’s requests, oldest first: status, persona, fault, a refusal’s message, and what each write changed. The app’s only unless all: true (the tools’ own sign-ins are left out). id is what explainRequest takes.',
    narrow: 'ask for fewer (limit) or only some (operation, status, since, until)',
    effect: 'read',
    route: { method: 'GET', path: '/__sandbox/requests' },
    input: z.strictObject({
      operation: z.string().min(1).optional().describe('An operationId'),
      status: z.number().int().min(100).max(599).optional(),
      since: instant.optional(),
      until: instant.optional(),
      limit: z.number().int().min(1).max(1000).optional().describe('The last this many'),
      all: z.boolean().default(false).describe('true: the tools’ own sign-ins too'),
      session: sessionArgument,
    }),
    async run(args, call) {
      const entries = await sessionJournal(call)
      const since = args.since === undefined ? -Infinity : Date.parse(String(args.since))
      const until = args.until === undefined ? Infinity : Date.parse(String(args.until))
      const found = entries.filter((entry) => {
        const time = Date.parse(entry.time)
        return (
          (args.all === true || entry.client === undefined) &&
          (args.operation === undefined || entry.operationId === args.operation) &&
          (args.status === undefined || entry.status === args.status) &&
          time >= since &&
          time <= until
        )
      })
      const limit = typeof args.limit === 'number' ? args.limit : found.length
      return toolResult({ session: call.session, requests: found.slice(-limit) })
    },
  },
  {
    name: 'explainRequest',
    title: 'Explain a request',
    description:
      'One request of the journal in full: what was sent and answered (headers, bodies), and which rule refused it: a fault rule, a Prefer header, or the operation’s own.',
    narrow: 'queryJournal gives the entry without its bodies',
    effect: 'read',
    input: z.strictObject({
      id: z
        .string()
        .regex(/^r[1-9]\d*$/, 'must be a journal id such as r3 (queryJournal lists them)')
        .describe('An id of queryJournal'),
      session: sessionArgument,
    }),
    async run(args, call) {
      const entries = await sessionJournal(call)
      const entry = entries.find((candidate) => candidate.id === args.id)
      if (!entry) {
        return toolError(`No request ${String(args.id)} in session "${call.session}"`, [
          `id must be one of r1 to r${entries.length} (queryJournal lists them)`,
        ])
      }
      const harAnswer = await call.send({
        method: 'GET',
        url: `/__sandbox/requests.har?session=${encodeURIComponent(call.session)}`,
      })
      if (harAnswer.status !== 200) return controlResult(harAnswer)
      const exchange = exchangeOf(harAnswer.body as Har, entries, entry)
      const response = exchange ? bodyOf(exchange.response.content.text) : null
      let refusedBy: Record<string, unknown> | null = null
      if (entry.fault === 'prefer') {
        refusedBy = {
          kind: 'prefer',
          header: exchange && headerObject(exchange.request.headers).prefer,
        }
      } else if (entry.fault !== undefined) {
        const rules = await call.send({ method: 'GET', url: '/__sandbox/faults' })
        const rule = Array.isArray(rules.body)
          ? (rules.body as { id: string }[]).find((candidate) => candidate.id === entry.fault)
          : undefined
        refusedBy = { kind: 'fault rule', id: entry.fault, rule: rule ?? 'removed since' }
      } else if (entry.status >= 400) {
        const { message, details } = describeRefusal({ status: entry.status, body: response })
        refusedBy = {
          kind: entry.operationId ? `the rules of ${entry.operationId}` : 'routing',
          message,
          details,
        }
      }
      return toolResult({
        entry,
        request: exchange
          ? {
              method: exchange.request.method,
              url: exchange.request.url,
              headers: headerObject(exchange.request.headers),
              body: bodyOf(exchange.request.postData?.text),
            }
          : null,
        response: exchange
          ? {
              status: exchange.response.status,
              headers: headerObject(exchange.response.headers),
              body: response,
            }
          : null,
        refusedBy,
      })
    },
  },
  {
    name: 'clearJournal',
    title: 'Clear the journal',
    description: 'Empty the session’s journal, so that queryJournal shows only what comes next.',
    effect: { destructive: true, idempotent: true },
    route: { method: 'DELETE', path: '/__sandbox/requests' },
    input: z.strictObject({ session: sessionArgument }),
    async run(_, call) {
      const url = `/__sandbox/requests?session=${encodeURIComponent(call.session)}`
      return controlResult(await call.send({ method: 'DELETE', url }), () => ({ cleared: true }))
    },
  },
]
