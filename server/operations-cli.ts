/**
 * @module
 * What the command line does with `--operations <file>` (the server's and `mcp`'s): the file
 * imported, or its problem printed and exit code 2; the declarations refused at start, each
 * problem printed naming the file and the operation, exit code 2.
 */
import type { AnyOperationDeclaration } from '../mocks/core/user-operation.ts'
import { OperationDeclarationError } from '../mocks/core/user-operations.ts'
import { loadOperationsFile, OperationsFileError } from './operations-file.ts'

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
