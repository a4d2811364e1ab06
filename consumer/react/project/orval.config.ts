import { defineConfig } from 'orval'

export default defineConfig({
  platform: {
    // The app document `npm run openapi` writes: the 13 operations and the app's own.
    input: { target: './openapi.app.json' },
    // `client: 'fetch'`: the browser's fetch, no axios to install.
    output: {
      target: './src/orval/platform.ts',
      client: 'fetch',
      baseUrl: 'http://localhost:4010',
    },
  },
})
