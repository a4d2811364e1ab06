/**
 * Import rules checked by `npm run check:imports` (part of `npm test`): no import cycles,
 * the core (`mocks/core`) is given its content rather than importing it, shipped code never
 * imports a test helper, the rest reaches the core only through its index, the recordings and
 * the server do not reach into each other (the program, cli/, joins them), and neither do the
 * server and the contract check.
 */
const TESTS = '(\\.test\\.ts$|\\.spec\\.ts$|/test-[^/]+\\.ts$)'

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules together so neither can change or load alone.',
      from: { path: '^(mocks|recordings|server|cli|fixtures|client|contract|spec|test-support)/' },
      to: { circular: true },
    },
    {
      name: 'core-is-given-its-content',
      severity: 'error',
      comment:
        'The core is given its operations, personas, scenarios, the reading of scenario files, the factories, the HAR writer and the recorded answers by the entry that assembles it (mocks/sandbox.ts); it imports none of them, nor spec/ or the server.',
      from: { path: '^mocks/core/', pathNot: TESTS },
      to: {
        path: '^(recordings|mocks/(scenarios|factories|operations)|fixtures|spec|server)/',
      },
    },
    {
      name: 'the-core-has-one-face',
      severity: 'error',
      comment:
        "Outside mocks/core, the core is imported through its index (mocks/core/index.ts) alone: it lists by name what the rest may use, so what it does not list is free to change. The core's own tests may import its files.",
      from: { pathNot: '^mocks/core/' },
      to: { path: '^mocks/core/', pathNot: '^mocks/core/index\\.ts$' },
    },
    {
      name: 'recordings-are-plugged-in-by-the-entries',
      severity: 'error',
      comment:
        'Recordings code (record, replay, diff, learning) is a plug-in: the entries plug it in (mocks/*.ts, the runtimes, the program in cli/); the rest of the sandbox imports none of it.',
      from: {
        path: '^(mocks|server|client|fixtures|spec)/',
        pathNot: `(^mocks/[^/]+\\.ts$|^mocks/runtimes/|${TESTS})`,
      },
      to: { path: '^recordings/' },
    },
    {
      name: 'recordings-and-server-apart',
      severity: 'error',
      comment:
        'The recordings (record, replay, diff, learning) and the standalone server are two parts the program (cli/) puts together: the server answers without knowing traffic was recorded, and the recordings run in the library without the server. Neither imports the other, tests included; what both need lives in the core (mocks/core) or, if only the commands need it, in cli/.',
      from: { path: '^(recordings|server)/' },
      to: { path: '^(recordings|server)/', pathNot: '^$1/' },
    },
    {
      name: 'the-program-is-on-top',
      severity: 'error',
      comment:
        'cli/ is the program (the entry, its options, every command): it imports the server, the recordings and the library, and nothing the package ships imports it. Tests may parse options with it.',
      from: { path: '^(mocks|recordings|server|fixtures|client|spec)/', pathNot: TESTS },
      to: { path: '^cli/' },
    },
    {
      name: 'shipped-code-imports-no-test-helper',
      severity: 'error',
      comment:
        "test-support/ holds helpers of this repository's tests and is not published; what the package ships (the entries, the server, the client) never imports it.",
      from: { path: '^(mocks|recordings|server|cli|client|fixtures|spec)/', pathNot: TESTS },
      to: { path: '^test-support/' },
    },
    {
      name: 'public-client-stands-alone',
      severity: 'error',
      comment:
        "The public typed client (platform-sandbox/client) is typed by the generated contract and nothing else: it works against the real backend too. The sandbox's own control client lives in mocks/sandbox-client/.",
      from: { path: '^client/', pathNot: TESTS },
      to: { path: '^(mocks|server|fixtures)/' },
    },
    {
      name: 'mocks-import-no-server',
      severity: 'error',
      comment:
        'The library (mocks/) runs in browsers and apps without the standalone server; what both use (the devtools panels the dashboard page mounts) lives in mocks/ and the server imports it.',
      from: { path: '^mocks/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-and-contract-apart',
      severity: 'error',
      comment:
        'The contract check runs the package as built; the server ships without the contract check. What both need (the conformance cases) lives in spec/cases/.',
      from: { path: '^server/', pathNot: TESTS },
      to: { path: '^contract/' },
    },
    {
      name: 'contract-runs-the-built-package',
      severity: 'error',
      comment:
        'The contract check starts the sandbox as the package ships it, not from server/ sources.',
      from: { path: '^contract/', pathNot: TESTS },
      to: { path: '^server/' },
    },
    {
      name: 'build-scripts-not-shipped',
      severity: 'error',
      comment:
        'scripts/ holds build-time code (the merged document is built by scripts/spec/ into spec/generated/): nothing the package ships or runs imports it.',
      from: { path: '^(mocks|server|cli|fixtures|client|spec)/', pathNot: TESTS },
      to: { path: '^scripts/' },
    },
    {
      name: 'mcp-only-in-the-server',
      severity: 'error',
      comment:
        'The MCP module and its SDK belong to the standalone server: no entry of the library (browser, node, playwright...) imports them.',
      from: { path: '^(mocks|recordings|client|fixtures|spec)/' },
      to: { path: '(^server/mcp/|@modelcontextprotocol)' },
    },
    {
      name: 'mcp-loaded-on-first-use',
      severity: 'error',
      comment:
        'Outside server/mcp/ and the `mcp` command, the server and the program reach the MCP module only through a dynamic import (or for its types), so that their start does not load the SDK.',
      from: {
        path: '^(server|cli)/',
        pathNot: `(^server/mcp/|^cli/commands/mcp-command\\.ts$|${TESTS})`,
      },
      to: {
        path: '(^server/mcp/|@modelcontextprotocol)',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
}
