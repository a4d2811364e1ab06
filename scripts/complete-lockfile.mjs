#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform packages npm could not resolve.
 *
 * Tools such as Biome, Rollup and Rolldown ship one optional package per platform. When the
 * registry npm talks to is a partial mirror, `npm install` cannot fetch the manifests of the
 * other platforms' packages, leaves them out of the lockfile, and `npm ci` then refuses the
 * lockfile ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). This script adds an entry
 * for each such package (version from its parent's `optionalDependencies`, `os`/`cpu`/`libc`
 * from the registry's metadata of the package), so that `npm ci` accepts the lockfile on every
 * platform; npm skips the entries whose platform does not match, and fetches the matching one
 * by version on a machine that needs it.
 *
 * Run it after `npm install` changed the lockfile: `npm run lockfile`.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const lockPath = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(lockPath, 'utf8'))
const packages = lock.packages

function platformOf(name) {
  try {
    const out = execFileSync('npm', ['view', name, 'os', 'cpu', 'libc', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return out.trim() ? JSON.parse(out) : {}
  } catch {
    return {}
  }
}

let added = 0
for (const [path, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies ?? {}
  const base = path === '' ? 'node_modules/' : `${path}/node_modules/`
  for (const [name, range] of Object.entries(optional)) {
    // npm resolves a dependency in the nearest node_modules up the tree.
    const nested = `${base}${name}`
    const hoisted = `node_modules/${name}`
    if (packages[nested] || packages[hoisted]) continue
    const platform = platformOf(name)
    packages[hoisted] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(platform.os ? { os: platform.os } : {}),
      ...(platform.cpu ? { cpu: platform.cpu } : {}),
      ...(platform.libc ? { libc: platform.libc } : {}),
    }
    added += 1
    console.log(`lockfile: added ${name}@${packages[hoisted].version}`)
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'),
  ),
)
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`lockfile: ${added} platform package(s) added`)
