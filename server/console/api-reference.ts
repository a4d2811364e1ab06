/**
 * @module
 * `GET /__sandbox/docs`: the merged document rendered by Scalar's API reference,
 * served from the installed `@scalar/api-reference` package (no CDN), so the page
 * works offline. Scalar's default fonts, which it would fetch from its own site,
 * are turned off and replaced by the system's.
 */
import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

let scriptPath: string | undefined

/** The standalone browser build of `@scalar/api-reference`, from node_modules. */
export function scalarScriptPath(): string {
  // `import.meta.url` is empty in the CommonJS CLI bundle, which has `require` instead.
  const resolver = typeof require === 'function' ? require : createRequire(import.meta.url)
  scriptPath ??= join(
    dirname(resolver.resolve('@scalar/api-reference')),
    'browser',
    'standalone.js',
  )
  return scriptPath
}

/** Relative URLs, so the page works wherever the sandbox is mounted. */
export const apiReferencePage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Platform API sandbox: API reference</title>
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="docs/scalar.js"></script>
    <script>
      Scalar.createApiReference('#api-reference', {
        url: 'openapi.json',
        withDefaultFonts: false,
      })
    </script>
  </body>
</html>
`

let script: Buffer | undefined

/**
 * Scalar's bundle declares its fonts at fonts.scalar.com and, in this version, loads
 * them even with `withDefaultFonts: false`. Their `url(...)` sources become
 * `local(...)` names no machine has, so the browser falls back to system fonts and
 * the page makes no request that leaves the machine.
 */
function offlineScript(): Buffer {
  script ??= Buffer.from(
    readFileSync(scalarScriptPath(), 'utf8').replaceAll(
      'url(https://fonts.scalar.com/',
      'local(offline-scalar-font-',
    ),
  )
  return script
}

export function sendScalarScript(res: ServerResponse): void {
  const body = offlineScript()
  res.writeHead(200, {
    'content-type': 'text/javascript; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'public, max-age=3600',
  })
  res.end(body)
}
