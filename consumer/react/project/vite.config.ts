import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  // Component tests render in jsdom; the sandbox answers their requests in the test process.
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
})
