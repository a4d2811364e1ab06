/**
 * @module
 * Node only: reads scenario files (`.json`, `.yaml`, `.yml`) from paths and folders,
 * and compiles them. The browser gives the sandbox scenario objects instead.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { ScenarioError, type ScenarioSource } from './compile-scenarios.ts'

const SCENARIO_EXTENSION = /\.(json|ya?ml)$/i

async function filesOf(target: string): Promise<string[]> {
  const info = await stat(target)
  if (!info.isDirectory()) return [target]
  const entries = await readdir(target, { withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && SCENARIO_EXTENSION.test(entry.name))
    .map((entry) => path.join(target, entry.name))
    .sort()
}

/**
 * Reads and parses the scenario files at `paths` (a folder gives its `.json`, `.yaml`
 * and `.yml` files, not its subfolders). Throws a {@link ScenarioError} listing every
 * unreadable or unparsable file. Problems name files as given (relative to `cwd`).
 */
export async function readScenarioFiles(paths: readonly string[]): Promise<ScenarioSource[]> {
  // The YAML parser is loaded only by those who read files, not by every Node test importing the entry.
  const { parseScenarioText } = await import('./parse-text.ts')
  const problems: string[] = []
  const sources: ScenarioSource[] = []
  for (const target of paths) {
    let files: string[]
    try {
      files = await filesOf(target)
    } catch (error) {
      problems.push(`${target}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`)
      continue
    }
    if (files.length === 0) problems.push(`${target}: no .json, .yaml or .yml files in this folder`)
    for (const file of files) {
      try {
        sources.push({ file: parseScenarioText(await readFile(file, 'utf8'), file), source: file })
      } catch (error) {
        if (error instanceof ScenarioError) problems.push(...error.problems)
        else
          problems.push(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`)
      }
    }
  }
  if (problems.length > 0) throw new ScenarioError('Invalid scenario files', problems)
  return sources
}
