/**
 * Import rules checked by `npm run check:imports` (part of `npm test`): no import cycles,
 * and the core (`mocks/core`) is given its content rather than importing it.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules together so neither can change or load alone.',
      from: { path: '^(mocks|server|fixtures)/' },
      to: { circular: true },
    },
    {
      name: 'core-is-given-its-content',
      severity: 'error',
      comment:
        'The core is given its operations, personas and scenarios by the entry modules (mocks/sandbox.ts); it never imports them.',
      from: { path: '^mocks/core/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(fixtures|mocks/operations)/' },
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
