#!/usr/bin/env node
/**
 * Checks the package as it would be published: publint (package.json against the files)
 * and arethetypeswrong (every entry's types resolve, ESM only), on one tarball of the
 * current build. Usage: `npm run check:package` (after `npm run build`).
 */
import { execFileSync } from 'node:child_process'
import { packTarball, root } from './pack-tarball.mjs'

const tarball = packTarball()
console.log(`check:package: ${tarball}`)
const run = (command, args) =>
  execFileSync('npx', ['--no-install', command, ...args], { cwd: root, stdio: 'inherit' })
try {
  run('publint', ['run', tarball, '--strict'])
  run('attw', [
    tarball,
    '--profile',
    'esm-only',
    // Not a module: a YAML file for tools (Prism, editors); attw cannot resolve it.
    '--exclude-entrypoints',
    './openapi.published.yaml',
    '--format',
    'table-flipped',
  ])
} catch {
  process.exitCode = 1
}
