import './assets/main.css'

import { createApp } from 'vue'
import App from './App.vue'

async function enableMocking(): Promise<void> {
  // The sandbox answers the API in development, and in `vite build --mode sandbox` builds.
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const { startSandboxWorker } = await import('platform-sandbox/browser')
  await startSandboxWorker({
    quiet: true,
    // The sandbox's panel, folded to a button in a corner: its own chunk, fetched only here.
    devtools: () => import('platform-sandbox/devtools'),
  })
}

// The worker is started before the app mounts, so that its first request is answered.
enableMocking().then(() => {
  createApp(App).mount('#app')
})
