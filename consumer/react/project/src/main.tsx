import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'

const queryClient = new QueryClient()

async function enableMocking(): Promise<void> {
  // The sandbox answers the API in development, and in `vite build --mode sandbox` builds.
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const [
    { startSandboxWorker, SANDBOX_SIGN_IN_EVENT },
    { operationKit },
    { default: hostScreens },
  ] = await Promise.all([
    import('platform-sandbox/browser'),
    import('platform-sandbox'),
    // Operations of your own: `GET /host/bookings` among them, which the host's screen lists.
    import('platform-sandbox/examples/operations'),
  ])
  await startSandboxWorker({
    quiet: true,
    operations: hostScreens(operationKit),
    // The sandbox's panel, folded to a button in a corner: its own chunk, fetched only here.
    devtools: () => import('platform-sandbox/devtools'),
  })
  // A persona signed in from the panel: the app takes the session up through its own refresh.
  window.addEventListener(SANDBOX_SIGN_IN_EVENT, () => void queryClient.resetQueries())
}

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
