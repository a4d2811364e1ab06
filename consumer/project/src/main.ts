import { renderApp } from './app.ts'

async function enableMocking(): Promise<void> {
  // The sandbox answers the API in development, and in `vite build --mode sandbox` builds.
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const { startSandboxWorker } = await import('platform-sandbox/browser')
  await startSandboxWorker({ quiet: true })
}

enableMocking().then(() => renderApp(document.querySelector<HTMLDivElement>('#app')!))
