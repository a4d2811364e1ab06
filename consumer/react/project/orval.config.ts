import { defineConfig } from 'orval'

export default defineConfig({
  platform: {
    input: { target: './node_modules/platform-sandbox/dist/openapi.app.json' },
    // `client: 'fetch'`: the browser's fetch, no axios to install.
    output: {
      target: './src/orval/platform.ts',
      client: 'fetch',
      baseUrl: 'http://localhost:4010',
    },
  },
})
