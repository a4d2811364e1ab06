/**
 * @module
 * Finds the Chromium the end-to-end tests run in, without downloading browsers
 * through Playwright. Looks at `CHROMIUM_PATH`, `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH`,
 * the usual system paths and Playwright's own cache. Run as a script, it installs
 * the Debian/Ubuntu `chromium` package when nothing is found and it runs as root,
 * and otherwise exits with a message saying how to install one.
 *
 * @example
 * // playwright.config.ts
 * const executablePath = findChromium()
 *
 * // shell
 * tsx scripts/find-chromium.ts && playwright test
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ENV_NAMES = ['CHROMIUM_PATH', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH'] as const

const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

/** Chromium binaries in Playwright's browser cache, newest revision first. */
function playwrightCachePaths(): string[] {
  const cache =
    process.env.PLAYWRIGHT_BROWSERS_PATH ||
    (process.platform === 'darwin'
      ? join(homedir(), 'Library', 'Caches', 'ms-playwright')
      : join(homedir(), '.cache', 'ms-playwright'))
  if (!existsSync(cache)) return []
  const revisions = readdirSync(cache)
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()))
  return revisions.flatMap((revision) => [
    join(cache, revision, 'chrome-linux', 'chrome'),
    join(cache, revision, 'chrome-linux64', 'chrome'),
    join(cache, revision, 'chrome-linux', 'headless_shell'),
    join(cache, revision, 'chrome-headless-shell-linux64', 'chrome-headless-shell'),
    join(cache, revision, 'chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'),
  ])
}

/** The first Chromium found, or `undefined`. Never installs anything. */
export function findChromium(): string | undefined {
  for (const name of ENV_NAMES) {
    const value = process.env[name]
    if (value) {
      if (existsSync(value)) return value
      throw new Error(`Failed to find Chromium: ${name} points to "${value}", which does not exist`)
    }
  }
  return [...SYSTEM_PATHS, ...playwrightCachePaths()].find((path) => existsSync(path))
}

/** The flags every headless launch of the system Chromium needs here. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

function isDebianLike(): boolean {
  if (process.platform !== 'linux' || !existsSync('/etc/os-release')) return false
  const release = readFileSync('/etc/os-release', 'utf8')
  return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release)
}

function installWithApt(): void {
  console.log('[find-chromium] Chromium not found: installing the Debian package "chromium"')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env,
  })
}

const HOW_TO_INSTALL = `Failed to find Chromium for the end-to-end tests. Install one of:
  - Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium
  - macOS:          brew install --cask chromium
  - any system:     npx playwright install chromium
or point CHROMIUM_PATH at an existing Chromium or Chrome binary.`

function main(): void {
  let found: string | undefined
  try {
    found = findChromium()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
  if (!found && process.getuid?.() === 0 && isDebianLike()) {
    installWithApt()
    found = findChromium()
  }
  if (!found) {
    console.error(HOW_TO_INSTALL)
    process.exit(1)
  }
  console.log(`[find-chromium] using ${found}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
