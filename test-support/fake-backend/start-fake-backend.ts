/**
 * @module
 * Starts the fake backend (`fake-backend.ts`) as a child process on a free port of
 * 127.0.0.1 and stops it by its process id.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export interface FakeBackend {
  url: string
  pid: number
  close(): Promise<void>
}

const script = fileURLToPath(new URL('./fake-backend.ts', import.meta.url))

/** Resolves once the fake backend listens; rejects when it exits or says nothing in 20 s. */
export function startFakeBackend(): Promise<FakeBackend> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('Failed to start the fake backend: no port after 20 s'))
    }, 20_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Failed to start the fake backend: it exited with code ${code}`))
    })
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer)
      const { port } = JSON.parse(line) as { port: number }
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        close: () => {
          if (child.exitCode === null) child.kill('SIGTERM')
          return exited
        },
      })
    })
  })
}
