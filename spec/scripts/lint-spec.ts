/**
 * Lints both contract documents with Redocly CLI (`spec/redocly.yaml`): the published contract
 * as transcribed, and the merged document (written to `spec/dist/` first). Exits non-zero when
 * either has errors, naming the document that failed.
 *
 * Usage: `npm run lint:spec`
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MERGED_SPEC_PATH, PUBLISHED_SPEC_PATH } from '../build-document.ts'
import { writeMergedDocument } from './build-spec.ts'

const SPEC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const REPO_ROOT = resolve(SPEC_DIR, '..')
const REDOCLY_CONFIG = resolve(SPEC_DIR, 'redocly.yaml')
const REDOCLY_CLI = resolve(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')

interface LintTarget {
  label: string
  path: string
}

function lint(target: LintTarget): boolean {
  const result = spawnSync(
    process.execPath,
    [REDOCLY_CLI, 'lint', target.path, '--config', REDOCLY_CONFIG, '--format', 'stylish'],
    {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  )
  if (result.error) {
    console.error(`Failed to run Redocly CLI on the ${target.label}: ${result.error.message}`)
    return false
  }
  return result.status === 0
}

async function main(): Promise<number> {
  try {
    await writeMergedDocument()
  } catch (error) {
    console.error('Failed to build the merged document:')
    console.error(error instanceof Error ? error.message : error)
    return 1
  }

  const targets: LintTarget[] = [
    { label: 'published contract', path: PUBLISHED_SPEC_PATH },
    { label: 'merged sandbox document', path: MERGED_SPEC_PATH },
  ]
  const failed = targets.filter((target) => !lint(target))

  for (const target of failed) {
    console.error(`Lint failed: ${target.label} (${relative(REPO_ROOT, target.path)})`)
  }
  if (failed.length === 0) {
    console.log('Both contract documents lint without errors.')
  }
  return failed.length === 0 ? 0 : 1
}

process.exitCode = await main()
