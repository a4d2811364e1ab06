/**
 * @module
 * `GET /__sandbox/docs`: the merged document in Scalar's API reference, served from the package
 * (`dist/assets/`), its fonts and online services off so it works offline. The container is not
 * `#api-reference`: Scalar mounts an empty reference of its own on an element of that id.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The built `dist/assets/scalar.js`, beside `dist/cli/` or `dist/`; none in the sources. */
function shippedScriptPath(): string | undefined {
  const candidates =
    typeof __dirname === 'string'
      ? [join(__dirname, '..', 'assets', 'scalar.js')]
      : import.meta.url
        ? [fileURLToPath(new URL('./assets/scalar.js', import.meta.url))]
        : []
  return candidates.find((candidate) => existsSync(candidate))
}

/** The standalone browser build of `@scalar/api-reference`, from node_modules (development). */
export function scalarScriptPath(): string {
  const resolver = typeof require === 'function' ? require : createRequire(import.meta.url)
  return join(dirname(resolver.resolve('@scalar/api-reference')), 'browser', 'standalone.js')
}

/**
 * Scalar loads its fonts from fonts.scalar.com even with `withDefaultFonts: false`: their
 * `url(...)` become `local(...)` names no machine has, so the browser uses the system's.
 */
export function offlineScalarScript(source: string): string {
  return source.replaceAll('url(https://fonts.scalar.com/', 'local(offline-scalar-font-')
}

/** Relative URLs, so the page works wherever the sandbox is mounted. */
export const apiReferencePage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Platform API sandbox: API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="sandbox-api-reference"></div>
    <script src="docs/scalar.js"></script>
    <script>
      // The sandbox that serves this page answers the example requests: its origin and the
      // prefix it is mounted under (/__sandbox/docs -> /, /api/__sandbox/docs -> /api).
      const sandboxUrl = new URL('..', location.href).href.replace(/[/]$/, '')
      const options = {
        servers: [{ url: sandboxUrl, description: 'This sandbox' }],
        withDefaultFonts: false,
        // Scalar's online services have no place in a reference that works offline.
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        telemetry: false,
      }
      const show = (source) => Scalar.createApiReference('#sandbox-api-reference', { ...options, ...source })
      // The control token the dashboard was given in this tab: the document is behind it.
      const token = sessionStorage.getItem('platform-sandbox:control-token')
      if (!token) show({ url: 'openapi.json' })
      else fetch('openapi.json', { headers: { authorization: 'Bearer ' + token } })
        .then((answer) => answer.text())
        .then((content) => show({ content }))
    </script>
  </body>
</html>
`

let script: Buffer | undefined

export function offlineScript(): Buffer {
  if (script === undefined) {
    const shipped = shippedScriptPath()
    script = shipped
      ? readFileSync(shipped)
      : Buffer.from(offlineScalarScript(readFileSync(scalarScriptPath(), 'utf8')))
  }
  return script
}
