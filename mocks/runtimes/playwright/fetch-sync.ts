/**
 * @module
 * A blocking HTTP request for the fixture's synchronous calls (`sandbox.journal.list()`): a
 * worker thread fetches while the test's thread waits on a shared flag, so the server must
 * run in another process.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'

/** The worker: one `fetch` per message, its answer posted back, then the flag raised. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
parentPort.on('message', async ({ url, init, port, flag }) => {
  let answer
  try {
    const response = await fetch(url, init)
    answer = { status: response.status, text: await response.text() }
  } catch (error) {
    answer = { error: String(error && error.cause ? error.cause.message || error.cause : error) }
  }
  port.postMessage(answer)
  Atomics.store(flag, 0, 1)
  Atomics.notify(flag, 0)
})
`

export interface SyncAnswer {
  status: number
  text: string
}

export interface SyncRequest {
  method?: string
  headers?: Record<string, string>
}

let worker: Worker | undefined

/** Sends one request and blocks until its answer; throws when there is none in `timeoutMs`. */
export function fetchSync(url: string, init: SyncRequest = {}, timeoutMs = 10_000): SyncAnswer {
  if (!worker) {
    worker = new Worker(WORKER_SOURCE, { eval: true })
    worker.unref()
  }
  const flag = new Int32Array(new SharedArrayBuffer(4))
  const { port1, port2 } = new MessageChannel()
  try {
    worker.postMessage({ url, init, port: port2, flag }, [port2])
    if (Atomics.wait(flag, 0, 0, timeoutMs) === 'timed-out') {
      throw new Error(
        `Failed to read ${url}: no answer within ${timeoutMs} ms (is the server running in this same process?)`,
      )
    }
    const answer = receiveMessageOnPort(port1)?.message as SyncAnswer | { error: string }
    if ('error' in answer) throw new Error(`Failed to read ${url}: ${answer.error}`)
    return answer
  } finally {
    port1.close()
  }
}
