/**
 * Lints the contract documents with Redocly CLI (`spec/redocly.yaml`): the published contract
 * as transcribed, the merged document and the app document (both written to `spec/dist/`
 * first); then the same three with Spectral's OpenAPI rules (`spec/spectral.yaml`; for the
 * published contract `spec/spectral.published.yaml`), where a warning fails too. Exits non-zero when any lint fails, naming the document and the linter.
 *
 * Usage: `npm run lint:spec`
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MERGED_SPEC_PATH, PUBLISHED_SPEC_PATH } from './build-document.ts'
import { writeMergedDocument } from './build-spec.ts'
import { writeAppDocument } from './write-app-document.ts'

const SPEC_DIR = fileURLToPath(new URL('../../spec', import.meta.url))
const REPO_ROOT = resolve(SPEC_DIR, '..')
const REDOCLY_CONFIG = resolve(SPEC_DIR, 'redocly.yaml')
const APP_SPEC_PATH = resolve(SPEC_DIR, 'dist', 'platform-api.app.openapi.json')
const REDOCLY_CLI = resolve(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')
const SPECTRAL_RULESET = resolve(SPEC_DIR, 'spectral.yaml')
/** The published contract's ruleset: the same, less two rules that restate the reference's gaps. */
const SPECTRAL_PUBLISHED_RULESET = resolve(SPEC_DIR, 'spectral.published.yaml')
const SPECTRAL_CLI = resolve(
  REPO_ROOT,
  'node_modules',
  '@stoplight',
  'spectral-cli',
  'dist',
  'index.js',
)

interface LintTarget {
  label: string
  path: string
  spectralRuleset: string
}

function run(linter: string, args: string[], target: LintTarget): boolean {
  const result = spawnSync(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
  if (result.error) {
    console.error(`Failed to run ${linter} on the ${target.label}: ${result.error.message}`)
    return false
  }
  if (result.status !== 0) console.error(`${linter} found problems in the ${target.label}`)
  return result.status === 0
}

function lint(target: LintTarget): boolean {
  return run(
    'Redocly CLI',
    [REDOCLY_CLI, 'lint', target.path, '--config', REDOCLY_CONFIG, '--format', 'stylish'],
    target,
  )
}

/** Spectral's `spectral:oas` rules; a warning fails as an error does. */
function lintWithSpectral(target: LintTarget): boolean {
  return run(
    'Spectral',
    [
      SPECTRAL_CLI,
      'lint',
      target.path,
      '--ruleset',
      target.spectralRuleset,
      '--fail-severity',
      'warn',
    ],
    target,
  )
}

async function main(): Promise<number> {
  try {
    await writeMergedDocument()
    await writeAppDocument(APP_SPEC_PATH)
  } catch (error) {
    console.error('Failed to build the merged document:')
    console.error(error instanceof Error ? error.message : error)
    return 1
  }

  const targets: LintTarget[] = [
    {
      label: 'published contract',
      path: PUBLISHED_SPEC_PATH,
      spectralRuleset: SPECTRAL_PUBLISHED_RULESET,
    },
    { label: 'merged sandbox document', path: MERGED_SPEC_PATH, spectralRuleset: SPECTRAL_RULESET },
    { label: 'app document', path: APP_SPEC_PATH, spectralRuleset: SPECTRAL_RULESET },
  ]
  const failed = targets.filter((target) => !lint(target))
  for (const target of targets) {
    if (!lintWithSpectral(target) && !failed.includes(target)) failed.push(target)
  }

  for (const target of failed) {
    console.error(`Lint failed: ${target.label} (${relative(REPO_ROOT, target.path)})`)
  }
  if (failed.length === 0) {
    console.log('The three contract documents lint without errors; Spectral finds no warning.')
  }
  return failed.length === 0 ? 0 : 1
}

process.exitCode = await main()
