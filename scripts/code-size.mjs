/**
 * @module
 * `npm run size`: the size of the product's hand-written code, as the project keeps it. Lines
 * (`wc -l`, Biome at line width 100) of the `.ts`, `.tsx`, `.js` and `.mjs` files git tracks,
 * leaving out tests, generated files, test support and the folders that are not the product
 * (benchmarks, docs, examples, the consumer, contract and browser suites, deployment, scripts).
 * Prints the total, the recordings code and the largest files; `--check` fails when a file is
 * over the per-file limit.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

export const FILE_LIMIT = 300
const NOT_PRODUCT = /^(bench|consumer|contract|e2e|scripts|docs|examples|deploy|\.storybook)\//
const NOT_HAND_WRITTEN =
  /(\.(test|spec)\.|\.generated\.|\/generated\/|\.d\.m?ts$|^test-support\/|\/test-[a-z-]+\.ts$)/

/** The counted files of the repository at `root`, each with its line count. */
export function countedFiles(root = process.cwd()) {
  const tracked = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.js', '*.mjs'], {
    cwd: root,
    encoding: 'utf8',
  })
  return tracked
    .split('\n')
    .filter((path) => path && !NOT_PRODUCT.test(path) && !NOT_HAND_WRITTEN.test(path))
    .map((path) => {
      const text = readFileSync(`${root}/${path}`, 'utf8')
      return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }
    })
}

const sum = (files) => files.reduce((total, file) => total + file.lines, 0)

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = countedFiles()
  const recordings = files.filter((file) => file.path.startsWith('recordings/'))
  const over = files.filter((file) => file.lines > FILE_LIMIT)
  const largest = [...files].sort((a, b) => b.lines - a.lines).slice(0, 10)
  console.log(`product code: ${sum(files)} lines in ${files.length} files`)
  console.log(`recordings/: ${sum(recordings)} lines in ${recordings.length} files`)
  console.log('largest:')
  for (const file of largest) console.log(`  ${String(file.lines).padStart(5)}  ${file.path}`)
  if (over.length > 0) {
    console.error(`over ${FILE_LIMIT} lines: ${over.map((file) => file.path).join(', ')}`)
    if (process.argv.includes('--check')) process.exitCode = 1
  }
}
