/**
 * @module
 * How the consumer test runs a step in the throwaway project: a command with a time limit,
 * its output kept and shown only when it fails, and servers started and stopped as a
 * process group.
 */
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export class StepError extends Error {}

/** Process groups still running: stopped with us on Ctrl+C or a CI timeout's SIGTERM. */
const running = new Set()
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopping = true
    console.error(`[consumer] ${signal}: stopping ${running.size} running command(s)`)
    // SIGINT first, as Ctrl+C would: Playwright then stops the web servers it started.
    for (const pid of running) killGroup(pid, 'SIGINT')
    setTimeout(() => {
      for (const pid of running) killGroup(pid)
      process.exit(130)
    }, 3000)
  })
}

function spawnGroup(command, args, { cwd, env }) {
  if (stopping) throw new StepError(`not starting \`${command}\`: the consumer test is stopping`)
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (child.pid !== undefined) running.add(child.pid)
  child.on('close', () => running.delete(child.pid))
  return child
}

/** The environment of a fresh shell: no `npm_*` variables of the `npm test` that started us. */
export function cleanEnv(extra = {}) {
  const env = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && name !== 'INIT_CWD' && name !== 'NODE') env[name] = value
  }
  return { ...env, ...extra }
}

/**
 * Runs `command args` in `cwd`; resolves with its output, or rejects with a StepError
 * holding the command, the exit code and the output's last lines.
 */
export function run(command, args, { cwd, env, timeoutMs = 300_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawnGroup(command, args, { cwd, env })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const timer = setTimeout(() => {
      output += `\n[consumer] timed out after ${timeoutMs / 1000} s, stopping it`
      killGroup(child.pid, 'SIGINT')
      setTimeout(() => running.has(child.pid) && killGroup(child.pid), 5000).unref()
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new StepError(`\`${command}\` could not start: ${error.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else {
        const shown = [command, ...args].join(' ')
        const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`
        reject(new StepError(`\`${shown}\` ${how}\n${tail(output, 80)}`))
      }
    })
  })
}

/** Starts a long-running command (a server) in its own process group. */
export function start(command, args, { cwd, env }) {
  const child = spawnGroup(command, args, { cwd, env })
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  return {
    output: () => output,
    exited: new Promise((resolve) => child.on('close', resolve)),
    stop: () => killGroup(child.pid),
  }
}

function killGroup(pid, signal = 'SIGTERM') {
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}

/** Polls `url` until it answers 200, or fails after `timeoutMs`. */
export async function waitFor(url, { timeoutMs = 30_000, server } = {}) {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  let gone = false
  server?.exited.then(() => {
    gone = true
  })
  while (Date.now() < deadline && !gone) {
    try {
      const response = await fetch(url)
      if (response.ok) return response
      last = `status ${response.status}`
    } catch (error) {
      last = error.cause?.code ?? error.message
    }
    await sleep(200)
  }
  const why = gone ? 'the server exited' : `${last} after ${timeoutMs / 1000} s`
  throw new StepError(`${url} never answered 200 (${why})\n${tail(server?.output() ?? '', 40)}`)
}

/** A TCP port free right now on localhost. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

export function tail(text, lines) {
  return text.trimEnd().split('\n').slice(-lines).join('\n')
}

export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * Vite 8.4 refuses a second `vite preview` of one project and mode while its lock file names a
 * live process, and checks with `kill(pid, 0)`, which an exited server that no init process has
 * reaped (a zombie, in a container without one) passes. The web servers of the last Playwright
 * run are gone by the next one: their locks go too (`node_modules/.vite/lock`).
 */
export function clearViteLocks(project) {
  rmSync(join(project, 'node_modules', '.vite', 'lock'), { recursive: true, force: true })
}
