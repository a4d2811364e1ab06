/**
 * The library build (`npm run build`): compiled ESM and `.d.ts` for every entry of the
 * package, in `dist/`. tsdown (Rolldown, with rolldown-plugin-dts for the declarations) is
 * what msw and @msw/data publish with: one config for several entries, shared chunks, and
 * dependencies and peers left to the user's install.
 */
import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: {
    index: 'mocks/index.ts',
    node: 'mocks/node.ts',
    browser: 'mocks/browser.ts',
    playwright: 'mocks/playwright.ts',
    storybook: 'mocks/storybook.ts',
    server: 'server/index.ts',
    client: 'client/index.ts',
    types: 'client/types.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  outDir: 'dist',
  dts: { tsconfig: 'tsconfig.build.json', resolver: 'tsc' },
  deps: {
    // Bundled with the code (devDependencies), their types too, so that users install only
    // msw and the server's packages: @msw/data's draft type comes from mutative.
    dts: { alwaysBundle: ['mutative'] },
    onlyBundle: false,
  },
  sourcemap: false,
  clean: true,
  fixedExtension: false,
  hash: false,
  tsconfig: 'tsconfig.build.json',
  // The contract files, as `platform-sandbox/openapi.json` and `/openapi.published.yaml`.
  copy: [
    { from: 'spec/generated/openapi.json', to: 'dist' },
    { from: 'spec/platform-api.openapi.yaml', to: 'dist', rename: 'openapi.published.yaml' },
  ],
  checks: { pluginTimings: false },
})
