/**
 * @module
 * The console's pages, answered before the sandbox: the dashboard (`/__sandbox/`), its script,
 * the API reference (`/__sandbox/docs`), the live journal (`/__sandbox/events`), readiness
 * (`/__sandbox/ready`) and the metrics (`/__sandbox/metrics`). Paths and links are relative to
 * where the sandbox is mounted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  DEFAULT_SESSION,
  errorResponse,
  jsonResponse,
  refuseWithoutControlToken,
  SandboxError,
  type SandboxResponse,
  type StateStore,
  viewedSession,
} from '../../mocks/core/index.ts'
import { pageStyles, panelStyles } from '../../mocks/runtimes/devtools/styles.ts'
import type { Sandbox } from '../../mocks/sandbox.ts'
import { matchServerRoute } from '../control-routes.ts'
import { answerUnexpectedError, contextOf, writeAnswer } from '../handler.ts'
import type { ServerMetrics } from '../metrics.ts'
import { apiReferencePage, offlineScript } from './api-reference.ts'
import { dashboardScript } from './dashboard-script.generated.ts'
import { streamJournal } from './journal-stream.ts'

/** The dashboard: its script is built from `server/dashboard/main.ts`, its styles the devtools'. */
const dashboardPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Platform API sandbox: dashboard</title>
    <!-- An icon of its own: the browser then asks for no /favicon.ico, which would be a
         request of the session's journal. -->
    <link rel="icon" href="data:," />
    <style>${pageStyles}${panelStyles}</style>
  </head>
  <body>
    <div id="dashboard"><p>Loading the dashboard...</p></div>
    <noscript>The dashboard needs JavaScript; the control API is at <a href="openapi.json">openapi.json</a>.</noscript>
    <script type="module" src="dashboard.js"></script>
  </body>
</html>
`

function send(res: ServerResponse, type: string, body: string | Buffer, cache = 'no-store'): void {
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body),
    'cache-control': cache,
  })
  res.end(body)
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(308, { location, 'content-length': 0 })
  res.end()
}

export interface ConsoleOptions {
  controlToken?: string | undefined
  /** What `/__sandbox/metrics` shows; absent, it answers 404. */
  metrics?: ServerMetrics | undefined
  /** The store whose `ready()` readiness awaits. */
  store?: StateStore | undefined
}

/** 200 once the scenario is loaded and the store takes writes; 503 with `Retry-After` otherwise. */
async function readiness(
  sandbox: Sandbox,
  store: StateStore | undefined,
): Promise<SandboxResponse> {
  try {
    await sandbox.ready
    await store?.ready?.()
    return jsonResponse(200, { status: 'ready' })
  } catch (error) {
    const refusal =
      error instanceof SandboxError && error.status === 503
        ? error
        : new SandboxError(503, 'The sandbox is not ready', [String((error as Error).message)])
    const answer = errorResponse(refusal)
    answer.headers['retry-after'] ??= '1'
    return answer
  }
}

async function metricsText(metrics: ServerMetrics | undefined): Promise<SandboxResponse> {
  if (!metrics) {
    throw new SandboxError(404, 'This server keeps no metrics', [
      'they are off with --no-metrics, or the metrics: false option in code',
    ])
  }
  return {
    status: 200,
    headers: { 'content-type': metrics.contentType },
    body: await metrics.text(),
    setCookie: [],
  }
}

/** Writes the answer `making` resolves to; a `SandboxError` is its answer, anything else a 500. */
function answerLater(res: ServerResponse, making: Promise<SandboxResponse>): void {
  making.then(
    (answer) => writeAnswer(res, answer),
    (error: unknown) =>
      error instanceof SandboxError
        ? writeAnswer(res, errorResponse(error))
        : answerUnexpectedError(error, res),
  )
}

/** The handler of the control routes the core leaves to the server; `true` if it answered. */
export function createConsoleRoutes(sandbox: Sandbox, options: ConsoleOptions = {}) {
  return function answerConsole(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false
    const url = req.url ?? '/'
    if (!url.startsWith('/__sandbox')) return false
    const context = contextOf(req)
    const { path } = context
    const route = matchServerRoute('GET', path)?.value
    if (!route) return false
    if (options.controlToken !== undefined && route.access === 'control') {
      const refusal = refuseWithoutControlToken(
        { method: 'GET', url, headers: req.headers as never },
        options.controlToken,
      )
      if (refusal) {
        writeAnswer(res, refusal)
        return true
      }
    }
    switch (route.path) {
      case '/__sandbox/':
        // Its links are relative to the folder: the page is only served with the slash.
        if (path === '/__sandbox/') send(res, 'text/html', dashboardPage)
        else redirect(res, '__sandbox/')
        return true
      case '/__sandbox/dashboard.js':
        send(res, 'text/javascript', dashboardScript)
        return true
      case '/__sandbox/docs':
        if (path === '/__sandbox/docs') send(res, 'text/html', apiReferencePage)
        else redirect(res, '../docs')
        return true
      case '/__sandbox/ready':
        answerLater(res, readiness(sandbox, options.store))
        return true
      case '/__sandbox/metrics':
        answerLater(res, metricsText(options.metrics))
        return true
      case '/__sandbox/docs/scalar.js':
        send(res, 'text/javascript', offlineScript(), 'public, max-age=3600')
        return true
      case '/__sandbox/events': {
        let session: string | undefined
        try {
          session = viewedSession(context) ?? DEFAULT_SESSION
        } catch (error) {
          if (!(error instanceof SandboxError)) throw error
          writeAnswer(res, errorResponse(error))
          return true
        }
        streamJournal(sandbox, session, req, res)
        return true
      }
      default:
        return false
    }
  }
}
