import { defineConfig } from '@hey-api/openapi-ts'

// Run from this folder, which has TypeScript 6 of its own: hey-api 0.99 fails next to the
// app's TypeScript 7 (its issue #4235). It writes into the app's src/, checked by the app's tsc.
export default defineConfig({
  // The app document `npm run openapi` writes: the 13 operations and the app's own.
  input: '../openapi.app.json',
  output: '../src/client',
  plugins: ['@hey-api/client-fetch', '@tanstack/react-query'],
})
