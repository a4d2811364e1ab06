/**
 * @module
 * The panels' styles, shared by both hosts: the dashboard page puts them in its `<head>`,
 * the in-page devtools in their Shadow DOM, where `:host` stands for the page's `:root`.
 */

/** The dashboard page's own frame: its body, header and two columns. */
export const pageStyles = `
:root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; --line: #8884; --accent: #2563eb; }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.2rem; margin: 0; }
main { padding: .5rem 1rem; }
.columns { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(420px, 1.4fr); gap: 1rem; }
@media (max-width: 900px) { .columns { grid-template-columns: 1fr; } }
/* From 360 px up: a column never grows past the window; wide tables scroll inside it. */
.columns > * { min-width: 0; }
@media (max-width: 480px) { main, header { padding-left: .5rem; padding-right: .5rem; } }
`

/** What every panel uses, in either host. */
export const panelStyles = `
h2 { font-size: 1rem; margin: 0 0 .5rem; }
.panel { border: 1px solid var(--line); border-radius: 6px; padding: .75rem; margin-bottom: 1rem; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .25rem 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: .5rem; align-items: end; }
.field, label { display: flex; flex-direction: column; gap: .15rem; font-size: .85rem; }
input, select, textarea, button { font: inherit; max-width: 100%; box-sizing: border-box; }
textarea { width: 100%; font-family: ui-monospace, monospace; font-size: .75rem; }
button { cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; font-size: .8rem; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td { max-width: 18rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.scroll { max-height: 24rem; overflow: auto; max-width: 100%; }
.status.s2 { color: #15803d; } .status.s4 { color: #b45309; } .status.s5, .status.s0 { color: #dc2626; }
tr.faulted { background: #a855f722; }
tr.changes td { padding-top: 0; color: #475569; white-space: normal; max-width: none; }
.badge { font-size: .7rem; padding: 0 .3rem; border-radius: 1rem; border: 1px solid currentColor; color: #dc2626; }
.live { font-size: .75rem; padding: 0 .4rem; border-radius: 1rem; border: 1px solid var(--line); }
.live.on { color: #15803d; }
.problem { color: #dc2626; }
.help { margin: 0 0 .5rem; font-size: .8rem; opacity: .8; }
.message { display: block; white-space: normal; color: #b45309; }
.collections { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
.collections button[aria-pressed="true"] { border-color: var(--accent); font-weight: 600; }
.count { opacity: .7; }
.rules { padding-left: 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`

/** Width of the open devtools, in CSS pixels: the page is pushed aside by as much. */
export const DRAWER_WIDTH = 480

/**
 * The in-page devtools: a folded button in a corner, and a drawer on the right with a tab per
 * panel. `all: initial` keeps the app's inherited styles out of the shadow tree.
 */
export const devtoolsStyles = `
:host { all: initial; color-scheme: light dark; font: 13px/1.4 system-ui, sans-serif; --line: #8884; --accent: #2563eb; --bg: Canvas; --fg: CanvasText; }
.fold { position: fixed; right: 12px; bottom: 12px; z-index: 2147483647; display: flex; align-items: center; gap: .35rem; padding: .35rem .7rem; border: 1px solid var(--line); border-radius: 999px; background: var(--bg); color: var(--fg); box-shadow: 0 2px 8px #0003; font: 600 12px/1.2 system-ui, sans-serif; }
.fold .dot { width: 8px; height: 8px; border-radius: 50%; background: #a855f7; }
.drawer { position: fixed; top: 0; right: 0; bottom: 0; z-index: 2147483647; width: min(${DRAWER_WIDTH}px, 100vw); box-sizing: border-box; display: flex; flex-direction: column; background: var(--bg); color: var(--fg); border-left: 1px solid var(--line); box-shadow: -4px 0 16px #0003; }
.drawer > header { display: flex; align-items: center; gap: .5rem; padding: .5rem .75rem; border-bottom: 1px solid var(--line); }
.drawer > header h1 { font-size: 1rem; margin: 0; flex: 1; }
[role="tablist"] { display: flex; flex-wrap: wrap; gap: .25rem; padding: .4rem .75rem; border-bottom: 1px solid var(--line); }
[role="tab"] { border: 1px solid var(--line); border-radius: 4px; background: none; color: inherit; padding: .15rem .5rem; }
[role="tab"][aria-selected="true"] { border-color: var(--accent); font-weight: 600; }
.tabpanels { flex: 1; overflow: auto; padding: .75rem; }
.tabpanels table { font-size: .75rem; }
.tabpanels td { white-space: normal; max-width: none; }
.tabpanels td:first-child, .tabpanels .badge { white-space: nowrap; }
.tabpanels td code { overflow-wrap: anywhere; }
.tabpanels .scroll { max-height: none; }
`
