/**
 * @module
 * `npm run size`: the size of the product's hand-written runtime code, as the project keeps it.
 * Lines (`wc -l`, Biome at line width 100) of the `.ts`, `.tsx`, `.js` and `.mjs` files git
 * tracks, leaving out tests, generated files, test support, build code and configs (`scripts/`,
 * the Spectral functions beside their ruleset) and the folders that are not the product
 * (benchmarks, docs, examples, the consumer, contract and browser suites, deployment). Prints the
 * total against its ceiling, the recordings code, what is reported apart and the largest files;
 * `--check` fails when a file is over the per-file limit or the total over the ceiling.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

export const FILE_LIMIT = 300
/**
 * The most lines of product runtime code. A change that adds a feature raises it by the
 * allowance its issue states, and no more; a change that removes code lowers it.
 */
export const CEILING =
  20_912 - // after build code left the count
  290 + // the CLI bundle's build out of the count, the launcher's machinery gone (one owner per folder)
  1_500 + // "A team sandbox on Redis" (state, faults, clock and journals in Redis; probes, metrics)
  900 + // "Operations of your own"
  220 // "Operations of your own" past its allowance: mcp --url tools, the new users' fixes
const NOT_PRODUCT = /^(bench|consumer|contract|e2e|docs|examples|deploy|\.storybook)\//
/** Build code and configs: run by the build and the checks, never by the product. */
const BUILD = /^(scripts\/|spec\/spectral-functions\/)/
const NOT_HAND_WRITTEN =
  /(\.(test|spec)\.|\.generated\.|\/generated\/|\.d\.m?ts$|^test-support\/|\/test-[a-z-]+\.ts$)/

function trackedFiles(root) {
  const tracked = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.js', '*.mjs'], {
    cwd: root,
    encoding: 'utf8',
  })
  return tracked
    .split('\n')
    .filter((path) => path && !NOT_PRODUCT.test(path))
    .map((path) => {
      const text = readFileSync(`${root}/${path}`, 'utf8')
      return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }
    })
}

/** The counted files of the repository at `root`, each with its line count. */
export function countedFiles(root = process.cwd()) {
  return trackedFiles(root).filter(({ path }) => !NOT_HAND_WRITTEN.test(path) && !BUILD.test(path))
}

/** What is reported apart: hand-written build code and configs, and generated files. */
function apartFiles(root = process.cwd()) {
  const files = trackedFiles(root)
  return {
    build: files.filter(({ path }) => BUILD.test(path) && !/\.(test|spec)\./.test(path)),
    generated: files.filter(({ path }) => /(\.generated\.|\/generated\/)/.test(path)),
  }
}

const sum = (files) => files.reduce((total, file) => total + file.lines, 0)

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = countedFiles()
  const recordings = files.filter((file) => file.path.startsWith('recordings/'))
  const over = files.filter((file) => file.lines > FILE_LIMIT)
  const largest = [...files].sort((a, b) => b.lines - a.lines).slice(0, 10)
  const total = sum(files)
  const { build, generated } = apartFiles()
  console.log(`product code: ${total} lines in ${files.length} files (ceiling ${CEILING})`)
  console.log(`recordings/: ${sum(recordings)} lines in ${recordings.length} files`)
  console.log(
    `apart: build code and configs ${sum(build)} lines, generated ${sum(generated)} lines`,
  )
  console.log('largest:')
  for (const file of largest) console.log(`  ${String(file.lines).padStart(5)}  ${file.path}`)
  if (over.length > 0) {
    console.error(`over ${FILE_LIMIT} lines: ${over.map((file) => file.path).join(', ')}`)
    if (process.argv.includes('--check')) process.exitCode = 1
  }
  if (total > CEILING) {
    console.error(`product code is ${total - CEILING} lines over its ceiling of ${CEILING}`)
    if (process.argv.includes('--check')) process.exitCode = 1
  }
}
