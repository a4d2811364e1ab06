/**
 * @module
 * The container image on this machine, with Podman and no registry: a base made with
 * `debootstrap --variant=minbase` plus Node 24 and npm from the npm registry (cached outside
 * the repository and in Podman's image store), the image built from the repository's
 * `Dockerfile` and the packed package, and containers run from it. Shared by the container
 * test and the bench. Everything a caller creates is removed by id.
 *
 * Debian's Podman 4.3 needs the runc runtime (crun fails on a cgroups v1/v2 hybrid) and explicit
 * `nofile` and `nproc` limits, so every command here passes them.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installNode24 } from '../../consumer/legs.mjs'
import { packTarball } from '../../scripts/pack-tarball.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The port the image listens on. */
export const CONTAINER_PORT = 4010
/** The limits Debian's Podman needs to start a container, at build and at run time. */
export const ULIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768']
const PODMAN = ['--runtime', 'runc']
const SUITE = 'bookworm'
const NPM = 'npm@11'

/** Where the base's parts are kept: `$CONTAINER_TEST_CACHE` or `~/.cache/platform-sandbox-container`. */
export const cacheDir =
  process.env.CONTAINER_TEST_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'platform-sandbox-container')

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])) {
    if (dir && existsSync(join(dir, command))) return join(dir, command)
  }
  return undefined
}

/**
 * Why images cannot be built and run here, or `undefined` when they can: Podman and runc,
 * and (unless `CONTAINER_TEST_BASE` names a base to use instead) debootstrap and root.
 */
export function unavailableReason(): string | undefined {
  const missing = ['podman', 'runc'].filter((command) => !which(command))
  if (!process.env.CONTAINER_TEST_BASE) {
    if (!which('debootstrap')) missing.push('debootstrap')
    if (process.getuid?.() !== 0)
      return 'building the test base with debootstrap needs root (or set CONTAINER_TEST_BASE to a base image with Node and npm, e.g. docker.io/library/node:24-slim)'
  }
  if (missing.length > 0)
    return `${missing.join(', ')} not installed (Debian: apt-get install -y podman runc debootstrap; .ci/run installs them when run as root)`
  return undefined
}

/** Runs `podman --runtime runc ...args`; resolves with its standard output, trimmed. */
export function podman(args: readonly string[], timeoutMs = 300_000): Promise<string> {
  return podmanOutput(args, timeoutMs).then(({ stdout }) => stdout)
}

/** What a container printed, standard output then standard error. */
export async function containerLogs(id: string): Promise<string> {
  const { stdout, stderr } = await podmanOutput(['logs', id], 60_000)
  return `${stdout}\n${stderr}`
}

function podmanOutput(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'podman',
      [...PODMAN, ...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `podman ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stderr.slice(-3000)}`,
            ),
          )
        } else resolve({ stdout: stdout.trim(), stderr: stderr.trim() })
      },
    )
  })
}

async function imageExists(name: string): Promise<boolean> {
  return podman(['image', 'exists', name]).then(
    () => true,
    () => false,
  )
}

/** The size Podman reports for an image, in bytes. */
export async function imageSize(image: string): Promise<number> {
  return Number(await podman(['image', 'inspect', '--format', '{{.Size}}', image]))
}

/** `debootstrap --variant=minbase` of Debian, as a root file system tarball kept in the cache. */
function minbaseTarball(log: (line: string) => void): string {
  const tarball = join(cacheDir, `${SUITE}-minbase.tar`)
  if (existsSync(tarball)) return tarball
  const target = mkdtempSync(join(tmpdir(), 'platform-sandbox-minbase-'))
  try {
    log(`debootstrap --variant=minbase ${SUITE} (once; kept in ${cacheDir})`)
    execFileSync('debootstrap', ['--variant=minbase', SUITE, target], { stdio: 'pipe' })
    // What apt downloaded and indexed is not part of a base image.
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      execFileSync('find', [join(target, dir), '-type', 'f', '-delete'])
    }
    mkdirSync(cacheDir, { recursive: true })
    execFileSync('tar', ['-C', target, '-cf', `${tarball}.partial`, '.'])
    execFileSync('mv', [`${tarball}.partial`, tarball])
  } finally {
    rmSync(target, { recursive: true, force: true })
  }
  return tarball
}

/** npm from the registry, kept in the cache: the base gets it like `node:24-slim` has it. */
function npmFolder(log: (line: string) => void): string {
  const prefix = join(cacheDir, 'npm')
  const folder = join(prefix, 'node_modules', 'npm')
  if (!existsSync(join(folder, 'package.json'))) {
    log(`npm install ${NPM} into ${prefix}`)
    execFileSync(
      'npm',
      [
        'install',
        NPM,
        '--prefix',
        prefix,
        '--no-save',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: homedir(), stdio: 'pipe' },
    )
  }
  return folder
}

/**
 * The certificate authorities this machine's npm trusts beyond Node's own (`cafile`,
 * `NODE_EXTRA_CA_CERTS`): a network whose proxy re-signs TLS needs them inside the build too.
 */
function extraCertificates(): string | undefined {
  const fromNpm = execFileSync('npm', ['config', 'get', 'cafile'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim()
  const file = [fromNpm, process.env.NODE_EXTRA_CA_CERTS].find(
    (path) => path && path !== 'null' && path !== 'undefined' && existsSync(path),
  )
  return file
}

/**
 * The base image: `CONTAINER_TEST_BASE` when set, otherwise Debian minbase plus Node 24 and
 * npm, built once and kept in Podman's store as `localhost/platform-sandbox-test-base:<tag>`
 * (remove it with `podman rmi` to rebuild it).
 */
export async function ensureBaseImage(log: (line: string) => void): Promise<string> {
  if (process.env.CONTAINER_TEST_BASE) return process.env.CONTAINER_TEST_BASE
  const nodeBin = await installNode24(log)
  const nodeVersion = execFileSync(join(nodeBin, 'node'), ['--version'], {
    encoding: 'utf8',
  }).trim()
  const npm = npmFolder(log)
  const npmVersion = JSON.parse(readFileSync(join(npm, 'package.json'), 'utf8')).version as string
  const certificates = extraCertificates()
  const name = `localhost/platform-sandbox-test-base:${SUITE}-node${nodeVersion.slice(1)}-npm${npmVersion}${certificates ? '-ca' : ''}`
  if (await imageExists(name)) return name

  const minbase = `localhost/platform-sandbox-test-minbase:${SUITE}`
  if (!(await imageExists(minbase))) {
    log(`importing ${minbase}`)
    await podman(['import', '--quiet', minbaseTarball(log), minbase])
  }
  const context = mkdtempSync(join(tmpdir(), 'platform-sandbox-base-'))
  try {
    copyFileSync(join(nodeBin, 'node'), join(context, 'node'))
    cpSync(npm, join(context, 'npm'), { recursive: true })
    const lines = [
      `FROM ${minbase}`,
      'COPY node /usr/local/bin/node',
      'COPY npm /usr/local/lib/node_modules/npm',
      'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx',
    ]
    if (certificates) {
      copyFileSync(certificates, join(context, 'ca-certificates.crt'))
      writeFileSync(join(context, 'npmrc'), 'cafile=/etc/ssl/certs/ca-certificates.crt\n')
      lines.push(
        'COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt',
        'COPY npmrc /usr/local/etc/npmrc',
      )
    }
    writeFileSync(join(context, 'Containerfile'), `${lines.join('\n')}\n`)
    log(`building ${name}`)
    await podman(['build', '--quiet', '--layers=false', ...ULIMITS, '-t', name, context])
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
  return name
}

/**
 * Builds the repository's `Dockerfile` on `base` from a fresh build context: the packed
 * package (from `dist/`, run `npm run build` first), `package.json`, the lockfile and the
 * Dockerfile. Resolves with the image id; no tag, no intermediate images left behind.
 */
export async function buildImage(base: string): Promise<string> {
  const context = mkdtempSync(join(tmpdir(), 'platform-sandbox-image-'))
  try {
    packTarball(context)
    for (const file of ['Dockerfile', '.dockerignore', 'package.json', 'package-lock.json']) {
      copyFileSync(join(root, file), join(context, file))
    }
    const iidfile = join(context, 'image-id')
    await podman([
      'build',
      '--quiet',
      '--layers=false',
      '--format',
      'docker',
      ...ULIMITS,
      '--build-arg',
      `BASE=${base}`,
      '--iidfile',
      iidfile,
      context,
    ])
    return readFileSync(iidfile, 'utf8')
      .trim()
      .replace(/^sha256:/, '')
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
}

/**
 * `podman run -d` of `image` with its port published on `127.0.0.1:<hostPort>`; `args` go
 * before the image (`-e`, `-v`...). Resolves with the container id. The health check's timer
 * is off (it needs systemd); `podman healthcheck run` still runs it.
 */
export function runContainer(
  image: string,
  hostPort: number,
  args: readonly string[] = [],
): Promise<string> {
  return podman([
    'run',
    '-d',
    ...ULIMITS,
    '--health-interval=disable',
    '-p',
    `127.0.0.1:${hostPort}:${CONTAINER_PORT}`,
    ...args,
    image,
  ])
}

/** Polls `url` until it answers 200; rejects after `timeoutMs`. */
export async function waitFor200(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    if (Date.now() > deadline) throw new Error(`Failed to get a 200 from ${url} in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}
