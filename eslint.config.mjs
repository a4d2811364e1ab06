/**
 * ESLint runs one check here (`npm run lint:regexp`): no regular expression in the shipped
 * source may backtrack super-linearly, since many of them read request input before anyone
 * is authenticated. Biome stays the linter and formatter; this config holds the two rules
 * of eslint-plugin-regexp and nothing else (docs/decisions/0006-regexp-lint.md).
 */
import tsParser from '@typescript-eslint/parser'
import regexp from 'eslint-plugin-regexp'

export default [
  {
    // Tests do not ship. Generated files are checked through their sources.
    ignores: ['**/*.test.ts', '**/*.generated.ts', 'spec/generated/**', '**/dist/**'],
  },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    languageOptions: { parser: tsParser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
]
