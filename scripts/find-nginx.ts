/**
 * @module
 * Finds nginx for the scale-out test, like `find-chromium.ts` finds Chromium: `NGINX_PATH`,
 * then the usual system paths. `ensureNginx()` installs the Debian/Ubuntu `nginx` package
 * when nothing is found and it runs as root; otherwise it throws a message saying how to
 * install it. The test fails with that message rather than being skipped.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'

const SYSTEM_PATHS = [
  '/usr/sbin/nginx',
  '/usr/bin/nginx',
  '/usr/local/sbin/nginx',
  '/opt/homebrew/bin/nginx',
  '/usr/local/bin/nginx',
]

const HOW_TO_INSTALL = `Failed to find nginx for the scale-out test. Install it:
  - Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y nginx
  - macOS:          brew install nginx
or point NGINX_PATH at an nginx binary.`

/** The first nginx found, or `undefined`. Never installs anything. */
export function findNginx(): string | undefined {
  const fromEnv = process.env.NGINX_PATH
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv
    throw new Error(`Failed to find nginx: NGINX_PATH points to "${fromEnv}", which does not exist`)
  }
  return SYSTEM_PATHS.find((path) => existsSync(path))
}

function isDebianLike(): boolean {
  if (process.platform !== 'linux' || !existsSync('/etc/os-release')) return false
  return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(readFileSync('/etc/os-release', 'utf8'))
}

/** nginx, installed from the distribution's packages first if needed and possible. */
export function ensureNginx(): string {
  const found = findNginx()
  if (found) return found
  if (process.getuid?.() === 0 && isDebianLike()) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    try {
      execFileSync('apt-get', ['update'], { stdio: 'pipe', env })
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
        stdio: 'pipe',
        env,
      })
    } catch (error) {
      const output = String((error as { stderr?: Buffer }).stderr ?? error).slice(-2000)
      throw new Error(`${HOW_TO_INSTALL}\napt-get failed:\n${output}`)
    }
    const installed = findNginx()
    if (installed) return installed
  }
  throw new Error(HOW_TO_INSTALL)
}
