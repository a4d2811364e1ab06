/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// https://vite.dev/config/
export default defineConfig(({ mode }) => ({
  plugins: [react()],
  // `vite build --mode sandbox` holds the sandbox's chunk (about 990 kB with the operations of
  // your own): no warning for it there; a production build keeps Vite's 500 kB warning.
  build: mode === 'sandbox' ? { chunkSizeWarningLimit: 1536 } : {},
  // Component tests render in jsdom; the sandbox answers their requests in the test process.
  // `test` is Vitest's: the reference line above adds it to Vite's config type for `tsc -b`.
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
}))
