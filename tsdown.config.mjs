/**
 * The library build (`npm run build`): ESM and `.d.ts` for every entry of the package, in
 * `dist/`, with tsdown, as msw and @msw/data publish.
 */
import { defineConfig } from 'tsdown'
import { pureSplitData } from './scripts/pure-split-data.mjs'

/** What the builds share. */
const common = {
  format: 'esm',
  target: 'es2022',
  outDir: 'dist',
  clean: false,
  dts: { tsconfig: 'tsconfig.build.json', resolver: 'tsc' },
  deps: {
    // Bundled with the code (devDependencies), their types too, so that users install only
    // msw and the server's packages: @msw/data's draft type comes from mutative.
    // outvariant and rettime, which @msw/data shares with msw, are dependencies instead (in
    // msw's ranges), so that a user's bundle holds one copy of each rather than two.
    dts: { alwaysBundle: ['mutative'] },
    onlyBundle: false,
    // zod's runtime is bundled, so that loading it is one module rather than hundreds (about
    // 40 ms less to import in Node); the package still depends on zod for its types.
    alwaysBundle: ['zod', /^zod\//],
  },
  sourcemap: false,
  fixedExtension: false,
  hash: false,
  tsconfig: 'tsconfig.build.json',
  checks: { pluginTimings: false },
  plugins: [pureSplitData(/[\\/]@faker-js[\\/]faker[\\/]dist[\\/]/)],
}

/**
 * The entries a browser bundle may import are built for no particular platform, so that no
 * chunk they load reaches for Node's `createRequire`; the Node-only entries for Node apart.
 */
export default defineConfig([
  {
    ...common,
    entry: {
      index: 'mocks/index.ts',
      browser: 'mocks/runtimes/browser/index.ts',
      storybook: 'mocks/runtimes/storybook/index.ts',
      devtools: 'mocks/runtimes/devtools/index.ts',
      'contract-check': 'mocks/contract-check.ts',
      client: 'client/index.ts',
      types: 'client/types.ts',
    },
    platform: 'neutral',
    // Chunk names of their own, so that no shared chunk takes an entry's name: zod's types,
    // a chunk named `index`, once took `index.d.ts` and left the main entry's at `index2.d.ts`.
    outputOptions: { chunkFileNames: 'shared-[name].js' },
    // The contract files, as `platform-sandbox/openapi.json` and `/openapi.published.yaml`.
    copy: [
      { from: 'spec/generated/openapi.json', to: 'dist' },
      { from: 'spec/platform-api.openapi.yaml', to: 'dist', rename: 'openapi.published.yaml' },
    ],
  },
  {
    ...common,
    entry: {
      node: 'mocks/runtimes/node/index.ts',
      playwright: 'mocks/runtimes/playwright/index.ts',
      server: 'server/index.ts',
    },
    platform: 'node',
    // Its own chunk names, so that it never overwrites a chunk of the first build.
    outputOptions: { chunkFileNames: 'node-[name].js' },
  },
  {
    ...common,
    // A build of its own, so that the one file an app's server bundle takes in holds only
    // the session rule, not a chunk it would share with the sandbox's Node entries.
    entry: { next: 'mocks/runtimes/next/index.ts' },
    platform: 'node',
    outputOptions: { chunkFileNames: 'next-[name].js' },
  },
])
