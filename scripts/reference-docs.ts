/**
 * @module
 * The reference pages written from their single sources: `docs/reference/control-api.md` from
 * the control route table (the core's rows and the server's: `server/control-routes.ts`) and the
 * merged document's summaries,
 * `docs/reference/cli.md` from the commander program of `cli/cli-options.ts`, `docs/reference/errors.md`
 * from the error codes of `mocks/core/errors.ts`. `npm run docs:reference`
 * writes them; `reference-docs.test.ts` fails when a page is not what its source gives.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { z } from 'zod'
import { createProgram } from '../cli/cli-options.ts'
import { controlRoutes, type ErrorStatus, errorCodes } from '../mocks/core/index.ts'
import { type ServerRoute, serverRoutes } from '../server/control-routes.ts'
import { buildMergedDocument } from './spec/build-document.ts'

export const CONTROL_API_PAGE = 'docs/reference/control-api.md'
export const CLI_PAGE = 'docs/reference/cli.md'
export const ERRORS_PAGE = 'docs/reference/errors.md'

const GENERATED =
  '<!-- Written by `npm run docs:reference` from its source; a test fails when it is stale. -->'

type Operation = { summary?: string; description?: string }

/** The fields of a route's JSON body, as `name` or `name?`, from its zod schema. */
function bodyFields(schema: z.core.$ZodType | undefined): string {
  if (!schema) return ''
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>
    required?: string[]
  }
  const required = new Set(json.required ?? [])
  return Object.keys(json.properties ?? {})
    .map((name) => `\`${name}${required.has(name) ? '' : '?'}\``)
    .join(', ')
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/** The control API page: every route of the table, who may call it and the body it reads. */
export async function controlApiPage(): Promise<string> {
  const merged = (await buildMergedDocument()) as {
    paths: Record<string, Record<string, Operation>>
  }
  // The core's rows and the server's, as the server routes them.
  const table: readonly ServerRoute[] = [...controlRoutes, ...serverRoutes]
  const rows = table
    .filter((route) => !route.asset)
    .map((route) => {
      const operation = merged.paths[route.path]?.[route.method.toLowerCase()]
      // The MCP endpoint speaks JSON-RPC, not the document's REST: its guide describes it.
      const summary = route.mcp
        ? 'The MCP endpoint (Streamable HTTP): see [the MCP guide](../agents/mcp.md)'
        : (operation?.summary ?? '')
      const access = route.access === 'public' ? 'anyone' : 'control token, when set'
      return `| ${route.method} | \`${route.path}\` | ${cell(summary)} | ${access} | ${bodyFields(route.body)} |`
    })
  return [
    '# The control API',
    '',
    GENERATED,
    '',
    'Every route under `/__sandbox`, in every runtime (the Node tests, the browser worker, the',
    'Playwright fixture, the standalone server). A call acts on the session its',
    '`x-sandbox-session` header or `sandbox_session` cookie names (the default session without',
    'either); a malformed one is a 400 on every path. Under a control token (`--control-token`),',
    'every route but the public ones needs `Authorization: Bearer <token>`; a call that changes',
    'state from a page of another site is refused with 403',
    '([limits and reliability](../operate/limits-and-reliability.md)). The standalone server,',
    'without a control token or `--control-open`, answers every route but `GET /__sandbox/health`',
    '(the dashboard and `/__sandbox/mcp` included) only to a loopback `Host` (`localhost`,',
    '`*.localhost`, `127.0.0.0/8`, `[::1]`), anything else 403 naming `--control-token`, and',
    'beyond loopback it closes them ([Exposure](../../server/README.md#exposure)). The merged',
    "document's `GET /__sandbox/openapi.json` holds each route's answers in full.",
    '',
    '| method | path | what it does | who may call it | JSON body |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

/** Every command of a program, depth first, with what its `--help` prints. */
function helps(program: Command, prefix = ''): { name: string; help: string }[] {
  const name = `${prefix}${program.name()}`
  let help = ''
  // The same page whatever the terminal's width, with the text added after the options.
  program
    .configureHelp({ helpWidth: 80 })
    .configureOutput({ writeOut: (text) => (help += text) })
    .outputHelp()
  const own = { name, help: help.trimEnd() }
  return [own, ...program.commands.flatMap((command) => helps(command, `${name} `))]
}

/** The CLI page: the server's options and every subcommand's, as `--help` prints them. */
export function cliPage(): string {
  const sections = helps(createProgram())
  return [
    '# CLI options',
    '',
    GENERATED,
    '',
    '`npx platform-sandbox` starts the standalone server; its subcommands record, convert and',
    'compare traffic and check a state directory. Each section is what `--help` prints.',
    '',
    ...sections.flatMap(({ name, help }) => [`## \`${name}\``, '', '```text', help, '```', '']),
  ].join('\n')
}

/** When the sandbox gives each status: what a reader needs beside the code. */
const whenGiven: Record<ErrorStatus, string> = {
  400: 'the request breaks the contract (a body, path or query that does not validate, a repeated or misspelt `dryRun`); `details` names each problem',
  401: 'no access token, or one that is expired, forged or of another secret; a refresh without a valid refresh token',
  403: "the caller may not do this (not the booking's host, not an admin...); a control call that changes state from a page of another site",
  404: 'no such record for the caller, an unknown path, an unknown scenario or snapshot',
  405: 'a known path with another method; the `Allow` header lists the methods',
  408: 'the request body did not arrive in time',
  409: 'the record is not in a state that allows it (a booking no longer pending...), a snapshot name already saved',
  413: 'a body over 100 kB',
  415: 'a body that is not JSON where JSON is read',
  429: 'a gateway fault rule (`Retry-After`)',
  431: "headers over Node's 16 kB; the connection is closed",
  500: 'a fault rule, or a defect of the sandbox (never with a stack trace)',
  502: 'a gateway fault rule',
  503: 'a gateway fault rule (`Retry-After`); a state directory that cannot be written or read',
  504: 'a gateway fault rule',
}

/** The errors page: every status the sandbox answers with its code, from `errors.ts`. */
export function errorsPage(): string {
  const rows = Object.entries(errorCodes).map(
    ([status, code]) => `| ${status} | \`${code}\` | ${whenGiven[Number(status) as ErrorStatus]} |`,
  )
  return [
    '# Errors',
    '',
    GENERATED,
    '',
    "Every error answer, of the 13 operations and of the control API, is the contract's",
    '`ApiErrorResponseDto`: `{ "message": string, "code": string, "details"?: string[] }`. The',
    'code follows from the status alone (`mocks/core/errors.ts`); fault rules answer the same',
    'bodies ([faults](../qa/faults.md)).',
    '',
    '| status | code | when the sandbox gives it |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  writeFileSync(`${root}${CONTROL_API_PAGE}`, await controlApiPage())
  writeFileSync(`${root}${CLI_PAGE}`, cliPage())
  writeFileSync(`${root}${ERRORS_PAGE}`, errorsPage())
  console.log(`Wrote ${CONTROL_API_PAGE}, ${CLI_PAGE} and ${ERRORS_PAGE}.`)
}
