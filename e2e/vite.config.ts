/**
 * Builds and serves the example page. `mockServiceWorker.js` comes from `e2e/public`.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  root: here('./app'),
  publicDir: here('./public'),
  logLevel: 'warn',
  build: {
    outDir: here('./dist/app'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod and others carry comments Rollup cannot place; harmless and noisy.
        if (warning.code !== 'INVALID_ANNOTATION') warn(warning)
      },
    },
  },
  server: { port: 5173, strictPort: true },
  // `npm run test:e2e` passes a free port (`--port`); 4173 is only the default by hand.
  preview: { port: 4173, strictPort: true },
})
