/**
 * @module
 * A port nobody listens on right now, from the operating system.
 */
import { createServer } from 'node:net'

/**
 * Asks the OS for a free port on `host` by listening on port 0 and closing at once. Another
 * process can take it before the caller binds it; `startPrism` retries when that happens.
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, host, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() =>
        port > 0 ? resolve(port) : reject(new Error('Failed to find a free port')),
      )
    })
  })
}
