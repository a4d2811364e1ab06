import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'

async function enableMocking(): Promise<void> {
  // The sandbox answers the API in development, and in `vite build --mode sandbox` builds.
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const { startSandboxWorker } = await import('platform-sandbox/browser')
  await startSandboxWorker({ quiet: true })
}

const queryClient = new QueryClient()

// The worker is started before the first render, so the first request is answered.
enableMocking().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  )
})
