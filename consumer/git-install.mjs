#!/usr/bin/env node
/**
 * Installs the package from a git URL, as a user would before it is published: npm clones
 * the repository, installs its development dependencies, runs `prepare` (the build), and
 * packs what `files` lists. Then a plain Node script in that project uses
 * `platform-sandbox/node`. It installs the committed HEAD of this checkout (a
 * `git+file://` URL), so uncommitted changes are not part of it.
 *
 * Usage: `node consumer/git-install.mjs` (the last step of `npm run test:consumer`).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cleanEnv, run, seconds, StepError } from './steps.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()

const SCRIPT = `import { setupSandboxServer } from 'platform-sandbox/node'

const { server, sandbox } = setupSandboxServer()
server.listen({ onUnhandledRequest: 'error' })
const health = await (await fetch('http://localhost:4010/__sandbox/health')).json()
const users = (await sandbox.store()).users.count()
server.close()
if (health.status !== 'ok' || users < 40) {
  throw new Error('unexpected answer: ' + JSON.stringify({ health, users }))
}
console.log('health ' + health.status + ', ' + users + ' users in the default scenario')
`

const started = Date.now()
const head = git('rev-parse', 'HEAD')
if (git('status', '--porcelain', '--untracked-files=no') !== '') {
  console.log('git-install: the work tree has uncommitted changes; this installs the committed HEAD')
}
const project = mkdtempSync(join(tmpdir(), 'platform-sandbox-git-install-'))
const env = cleanEnv()
try {
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "git-install-check", "private": true, "type": "module" }\n',
  )
  writeFileSync(join(project, 'check.mjs'), SCRIPT)
  const url = `git+file://${root}#${head}`
  console.log(`git-install: npm install ${url} msw (clones, installs, builds on prepare)…`)
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', url, 'msw@^2.12.10'],
    { cwd: project, env, timeoutMs: 900_000 },
  )
  const entry = join(project, 'node_modules', 'platform-sandbox', 'dist', 'node.js')
  if (!existsSync(entry)) throw new StepError(`the install has no ${entry}: prepare did not build`)
  console.log(`git-install: ${(await run('node', ['check.mjs'], { cwd: project, env })).trim()}`)
  console.log(`git-install: passed in ${seconds(Date.now() - started)}`)
} catch (error) {
  console.error(`git-install: FAILED\n${error instanceof StepError ? error.message : error}`)
  process.exitCode = 1
} finally {
  rmSync(project, { recursive: true, force: true })
}
