import './assets/main.css'

import { createApp } from 'vue'
import App from './App.vue'

async function enableMocking(): Promise<void> {
  // The sandbox answers the API in development, and in `vite build --mode sandbox` builds.
  if (!import.meta.env.DEV && import.meta.env.VITE_SANDBOX !== 'on') return
  const [{ startSandboxWorker }, { operationKit }, { default: hostScreens }] = await Promise.all([
    import('platform-sandbox/browser'),
    import('platform-sandbox'),
    // Operations of your own: `GET /host/bookings` among them, which the screen lists.
    import('platform-sandbox/examples/operations'),
  ])
  await startSandboxWorker({
    quiet: true,
    operations: hostScreens(operationKit),
    // The sandbox's panel, folded to a button in a corner: its own chunk, fetched only here.
    devtools: () => import('platform-sandbox/devtools'),
  })
}

// The worker is started before the app mounts, so that its first request is answered.
enableMocking().then(() => {
  createApp(App).mount('#app')
})
