/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  // Component tests render in jsdom; the sandbox answers their requests in the test process.
  // `test` is Vitest's: the reference line above adds it to Vite's config type for `tsc -b`.
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
})
