/**
 * @module
 * The dashboard's HTML and styles. Its script is the bundle built from
 * `server/dashboard/app/` (`npm run build:dashboard`); links are relative to
 * `/__sandbox/`, wherever the sandbox is mounted.
 */

const styles = `
:root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; --line: #8884; --accent: #2563eb; }
body { margin: 0; }
header { display: flex; align-items: baseline; gap: 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.2rem; margin: 0; }
h2 { font-size: 1rem; margin: 0 0 .5rem; }
main { padding: .5rem 1rem; }
.columns { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(420px, 1.4fr); gap: 1rem; }
@media (max-width: 900px) { .columns { grid-template-columns: 1fr; } }
.panel { border: 1px solid var(--line); border-radius: 6px; padding: .75rem; margin-bottom: 1rem; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .25rem 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: .5rem; align-items: end; }
.field { display: flex; flex-direction: column; gap: .15rem; font-size: .85rem; }
label { display: flex; flex-direction: column; gap: .15rem; font-size: .85rem; }
input, select, textarea, button { font: inherit; }
textarea { width: 100%; font-family: ui-monospace, monospace; font-size: .75rem; }
button { cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; font-size: .8rem; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td { max-width: 18rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.scroll { max-height: 24rem; overflow: auto; }
.status.s2 { color: #15803d; } .status.s4 { color: #b45309; } .status.s5, .status.s0 { color: #dc2626; }
tr.faulted { background: #a855f722; }
.badge { font-size: .7rem; padding: 0 .3rem; border-radius: 1rem; border: 1px solid currentColor; color: #dc2626; }
.live { font-size: .75rem; padding: 0 .4rem; border-radius: 1rem; border: 1px solid var(--line); }
.live.on { color: #15803d; }
.problem { color: #dc2626; }
.collections { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
.collections button[aria-pressed="true"] { border-color: var(--accent); font-weight: 600; }
.count { opacity: .7; }
.rules { padding-left: 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`

export const dashboardPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Platform API sandbox: dashboard</title>
    <style>${styles}</style>
  </head>
  <body>
    <div id="dashboard"><p>Loading the dashboard...</p></div>
    <noscript>The dashboard needs JavaScript; the control API is at <a href="openapi.json">openapi.json</a>.</noscript>
    <script type="module" src="dashboard.js"></script>
  </body>
</html>
`
