/**
 * @module
 * `--operations <file>` (`SANDBOX_OPERATIONS`): an ES module whose default export is the
 * operations of your own, or a function of the kit (`({ defineOperation, z }) => [...]`), so a
 * file in a mounted folder needs no install. The `platform-sandbox` launcher runs this code
 * through `vm`, where `import()` fails: it hands in its own (`IMPORT_KEY`). A file that does not
 * load, or declarations the sandbox refuses, end the command with every problem, exit code 2.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AnyOperationDeclaration, Operation } from '../mocks/core/index.ts'
import { OperationDeclarationError } from '../mocks/core/index.ts'
import { operationKit } from '../mocks/operation-kit.ts'
import { createSandbox } from '../mocks/sandbox.ts'

/** Where the launcher (`bin/platform-sandbox.mjs`) leaves its `import()`. */
export const IMPORT_KEY = Symbol.for('platform-sandbox.import')

/** A file of operations the CLI refuses: its message names the file and the problem. */
export class OperationsFileError extends Error {}

/** Whether this Node strips the types of a `.ts` file by itself (22.18 and later). */
export function stripsTypes(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 18)
}

/** The operations of `file`, imported; an `OperationsFileError` when it cannot be. */
export async function loadOperationsFile(
  file: string,
  node = process.versions.node,
): Promise<readonly AnyOperationDeclaration[]> {
  const path = resolve(file)
  if (!existsSync(path)) throw new OperationsFileError(`${file}: no such file`)
  if (/\.[cm]?ts$/.test(path) && !stripsTypes(node)) {
    throw new OperationsFileError(
      `${file}: a TypeScript file needs Node 22.18 or later (it strips the types itself); this is Node ${node}: upgrade Node, or write the file as .mjs`,
    )
  }
  const load =
    (globalThis as { [IMPORT_KEY]?: (url: string) => Promise<unknown> })[IMPORT_KEY] ??
    ((url: string) => import(url))
  let module: { default?: unknown }
  try {
    module = (await load(pathToFileURL(path).href)) as { default?: unknown }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new OperationsFileError(`${file}: does not load: ${reason}`)
  }
  const found = module.default
  if (!Array.isArray(found) && typeof found !== 'function') {
    throw new OperationsFileError(
      `${file}: its default export must be an array of operations (defineOperation) or a function ({ defineOperation, z }) => [...]`,
    )
  }
  try {
    return typeof found === 'function' ? found(operationKit) : found
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new OperationsFileError(`${file}: its default export failed: ${reason}`)
  }
}

const INVALID_OPERATIONS_EXIT_CODE = 2

/** The operations of `file`; exits with its problem when it does not load. */
export async function readOperations(file: string): Promise<readonly AnyOperationDeclaration[]> {
  try {
    return await loadOperationsFile(file)
  } catch (error) {
    if (!(error instanceof OperationsFileError)) throw error
    console.error(`platform-sandbox: ${error.message}`)
    return process.exit(INVALID_OPERATIONS_EXIT_CODE)
  }
}

/** Exits naming every problem when `error` is the sandbox's refusal of the file's operations. */
export function exitOnInvalid(error: unknown, file: string): void {
  if (!(error instanceof OperationDeclarationError)) return
  console.error(`platform-sandbox: ${file}: invalid operations:`)
  for (const problem of error.problems) console.error(`  ${file}: ${problem}`)
  process.exit(INVALID_OPERATIONS_EXIT_CODE)
}

/**
 * The sandbox's operations with those of `file` among them (`createSandbox` warns of each that
 * a built-in operation answers); exits naming every problem when the file is refused.
 */
export async function sandboxOperations(file: string | undefined): Promise<readonly Operation[]> {
  const operations = file === undefined ? [] : await readOperations(file)
  try {
    return createSandbox({ operations }).operations
  } catch (error) {
    exitOnInvalid(error, file ?? '')
    throw error
  }
}
