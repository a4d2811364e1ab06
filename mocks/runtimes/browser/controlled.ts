/**
 * @module
 * A page must be controlled by msw's worker, or its requests go to the network. The worker
 * unregisters itself when the last page that started it unloads; a page loaded meanwhile (a
 * story's next `iframe.html`) gets it back from `worker.start()` unclaimed. So a page still
 * uncontrolled after a moment is reloaded once (the registration stands by then), then warned.
 */
/** What the check reads of the page; the browser's own by default. */
export interface PageControl {
  container: Pick<ServiceWorkerContainer, 'controller' | 'addEventListener' | 'removeEventListener'>
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  reload(): void
  warn(message: string): void
}

const RELOADED = 'platform-sandbox:reloaded-uncontrolled'

/** How long a started worker may take to claim the page before it is reloaded. */
export const CLAIM_WAIT_MS = 1_000

function browserPage(): PageControl {
  return {
    container: navigator.serviceWorker,
    storage: sessionStorage,
    reload: () => location.reload(),
    warn: (message) => console.warn(message),
  }
}

function claimed(container: PageControl['container'], waitMs: number): Promise<boolean> {
  if (container.controller) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer)
      container.removeEventListener('controllerchange', onChange)
      resolve(value)
    }
    const onChange = () => done(container.controller !== null)
    const timer = setTimeout(() => done(container.controller !== null), waitMs)
    container.addEventListener('controllerchange', onChange)
  })
}

/**
 * Resolves once the started worker controls the page. Never resolves when it reloads the
 * page instead, so nothing renders and sends requests that would escape the worker.
 */
export async function whenControlled(
  page: PageControl = browserPage(),
  waitMs = CLAIM_WAIT_MS,
): Promise<void> {
  if (await claimed(page.container, waitMs)) {
    page.storage.removeItem(RELOADED)
    return
  }
  if (page.storage.getItem(RELOADED) === null) {
    page.storage.setItem(RELOADED, '1')
    page.reload()
    return new Promise(() => {})
  }
  page.storage.removeItem(RELOADED)
  page.warn(
    "[sandbox] The page is not controlled by the mock service worker even after a reload: its requests go to the network. Is the page opened with a hard reload, or outside the worker's scope?",
  )
}
