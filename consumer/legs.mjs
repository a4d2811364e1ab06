/**
 * @module
 * The toolchains the consumer test installs the package with: this machine's Node 20
 * with msw 2, Node 24 with what `npm create vite` and `npm i -D msw` install today, the
 * React app of `react/`, the Next.js app of `next/` and the Vue app of `vue/`, all on Node 24.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { nextLeg } from './next/leg.mjs'
import { reactLeg } from './react/leg.mjs'
import { run } from './steps.mjs'
import { vueLeg } from './vue/leg.mjs'

const here = dirname(new URL(import.meta.url).pathname)

/** The toolchain every recipe needs beside the package, shared by both legs' lists. */
const tools = (v) => [
  `typescript@${v.typescript}`,
  `vite@${v.vite}`,
  `vitest@${v.vitest}`,
  `@types/node@${v.typesNode}`,
  '@playwright/test@~1.65',
  'storybook@^10',
  '@storybook/html-vite@^10',
  'msw-storybook-addon@^3',
]

export const legs = [
  {
    name: 'node20-msw2',
    title: 'Node 20, msw 2.15, TypeScript 5.9, Vite 7, Vitest 4.1',
    msw: 'msw@~2.15',
    devDependencies: tools({ typescript: '~5.9', vite: '^7', vitest: '~4.1', typesNode: '^20' }),
    // msw 2 names the option `onUnhandledRequest` (msw 3, which the guides show: `onUnhandledFrame`).
    overlays: [join(here, 'overlays', 'msw2')],
    typecheck: [['tsc', '-b']],
    playwrightProjects: ['app', 'app-worker'],
    limitations: [],
    nodeBin: async () => dirname(process.execPath),
  },
  {
    name: 'node24-msw3',
    title: 'Node 24, msw 3, TypeScript 7, Vite 8, Vitest 5',
    msw: 'msw@^3',
    devDependencies: tools({ typescript: '^7', vite: '^8', vitest: '^5', typesNode: '^24' }),
    // create-vite 9 (Vite 8, TypeScript 7) writes other tsconfig defaults (`module: nodenext`
    // for Node files).
    overlays: [join(here, 'overlays', 'create-vite-9')],
    typecheck: [
      ['tsc', '-b'],
      ['tsc', '-b', 'tsconfig.create-vite-9.json'],
    ],
    playwrightProjects: ['app', 'app-worker'],
    limitations: [],
    nodeBin: installNode24,
  },
  reactLeg,
  nextLeg,
  vueLeg,
]

/**
 * Node 24 from the npm registry's `node` package, kept outside the repository and reused:
 * `$CONSUMER_NODE24_DIR`, or `~/.cache/platform-sandbox-consumer/node24`.
 */
export async function installNode24(log) {
  const folder =
    process.env.CONSUMER_NODE24_DIR ??
    join(
      process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
      'platform-sandbox-consumer',
      'node24',
    )
  const bin = join(folder, 'node_modules', 'node', 'bin')
  if (!existsSync(join(bin, 'node'))) {
    log(`installing node@24 into ${folder}`)
    await run(
      'npm',
      [
        'install',
        'node@24',
        '--prefix',
        folder,
        '--no-save',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: homedir(), env: process.env },
    )
  }
  const version = (
    await run(join(bin, 'node'), ['--version'], { cwd: folder, env: process.env })
  ).trim()
  if (!version.startsWith('v24.')) {
    throw new Error(`Failed to get Node 24: ${join(bin, 'node')} is ${version}`)
  }
  return bin
}
