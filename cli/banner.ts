/**
 * @module
 * What the CLI prints once the server is ready: where it is, what it holds, how to sign in; or
 * that its port is taken.
 */
import type { Sandbox } from '../mocks/sandbox.ts'
import type { ControlAccess } from '../server/exposure.ts'

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * The URL to give a front-end: `localhost` for the loopback address. An app served from
 * `http://localhost:5173` and an API at `http://127.0.0.1:4010` are different sites, so the
 * browser never sends the SameSite=Lax `refresh_token` cookie to the API; with
 * `http://localhost:4010` both are the same site and sign-in works.
 */
export function browserUrl(url: string): string {
  return url.replace(/^http:\/\/127\.0\.0\.1(?=[:/]|$)/, 'http://localhost')
}

/** The operations of your own served: one line each, or past five their count and ids. */
function ownOperations(sandbox: Sandbox): string[] {
  const own = sandbox.operations.filter((operation) => operation.proposed)
  const routes = own.map((operation) => `${operation.method} ${operation.path}`)
  const width = Math.max(...routes.map((route) => route.length))
  const title = '  operations of your own'
  if (own.length > 5) return [`${title} (${own.length}): ${own.map((o) => o.id).join(', ')}`]
  const lines = own.map((operation, n) => `    ${routes[n]!.padEnd(width)}  ${operation.id}`)
  return own.length > 0 ? [`${title} (method, path, operationId)`, ...lines] : []
}

/** The start-up message: URL, scenario, personas, how to sign in, the console's pages. */
export function formatBanner(
  url: string,
  sandbox: Sandbox,
  bound: { address?: string; control?: ControlAccess } = {},
): string {
  const { scenario, seed, strictContract } = sandbox.settings
  const host = sandbox.personas.find((persona) => persona.key === 'host') ?? sandbox.personas[0]
  const width = Math.max(...sandbox.personas.map((persona) => persona.key.length))
  const idWidth = Math.max(...sandbox.personas.map((persona) => persona.publicId.length))
  const lines = [
    `Platform API sandbox listening on ${bound.address ?? url}`,
    ...(bound.address && bound.address !== url ? [`  from this machine: ${url}`] : []),
    '',
    `  scenario   ${scenario} (seed ${seed})${strictContract ? ', strict contract: dryRun required' : ''}`,
    '  personas   (key, public id, idp code)',
    ...sandbox.personas.map(
      (persona) =>
        `    ${persona.key.padEnd(width)}  ${persona.publicId.padEnd(idWidth)}  ${persona.idpCode}`,
    ),
    ...ownOperations(sandbox),
  ]
  if (host) {
    lines.push(
      '',
      `  Sign in as ${host.key} (sets the refresh_token cookie), then get an access token:`,
      `    curl -i -c cookies.txt -X POST ${url}/auth/idp/complete -H 'content-type: application/json' -d ${shellQuote(JSON.stringify({ code: host.idpCode }))}`,
      `    curl -b cookies.txt -X POST '${url}/auth/refresh?dryRun=true' -H 'content-type: application/json' -d '{}'`,
    )
  }
  const control = bound.control ?? 'open'
  lines.push(
    '',
    ...(control === 'closed'
      ? [
          '  Control API: closed, listening beyond loopback without a control token: only',
          `    ${url}/__sandbox/health answers. Set SANDBOX_CONTROL_TOKEN (--control-token) to`,
          '    use it with Authorization: Bearer <token>, or SANDBOX_CONTROL_OPEN=true (--control-open) to open it.',
        ]
      : [
          `  Dashboard:     ${url}/__sandbox/`,
          `  API reference: ${url}/__sandbox/docs`,
          `  Control API: ${url}/__sandbox/health, /personas, /scenarios, /reset, /collections/:name, /requests, /openapi.json`,
        ]),
    ...(control === 'token'
      ? ['  (all but /health need Authorization: Bearer <control token>)']
      : []),
    ...(control === 'open' && bound.address
      ? ['  (open without a token to anyone who can reach this port: SANDBOX_CONTROL_OPEN)']
      : []),
    '  Ctrl+C stops the server.',
  )
  return lines.join('\n')
}

/** After a `listen` on a port in use, one line and exit code 1: the server's and `record`'s. */
export function exitIfPortInUse(error: unknown, hostAndPort: string): void {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return
  console.error(
    `platform-sandbox: ${hostAndPort} is already in use; choose another port with --port`,
  )
  process.exit(1)
}
