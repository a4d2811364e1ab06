/**
 * @module
 * The dashboard's HTML. Its script is the bundle built from `server/dashboard/main.ts`
 * (`npm run build:dashboard`), and so are its styles, which the in-page devtools share;
 * links are relative to `/__sandbox/`, wherever the sandbox is mounted.
 */
import { pageStyles, panelStyles } from '../../mocks/runtimes/devtools/styles.ts'

export const dashboardPage = `<!doctype html>
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
