/**
 * @module
 * What `state check` and `state repair` refuse in a session log besides a bad line: a write no
 * operation of this sandbox answers (an operation of your own no longer declared, or declared in
 * an `--operations` file not given), which a start would answer 503 for.
 */
import { createSandbox } from '../../mocks/sandbox.ts'
import type { LogRecord } from '../../server/state-log.ts'
import { readOperations } from '../operations-file.ts'

export type RefuseRecord = (record: LogRecord) => string | undefined

/** Why a record is refused, if it is: its method and path answered by no operation. */
export async function unansweredWrites(operationsFile: string | undefined): Promise<RefuseRecord> {
  const operations = operationsFile === undefined ? [] : await readOperations(operationsFile)
  const sandbox = createSandbox({ operations })
  return (record) => {
    if ('reset' in record) return undefined
    const { pathname } = new URL(record.url, 'http://sandbox')
    const routed = sandbox.route(record.method, pathname)
    if (routed !== undefined && routed !== 'control') return undefined
    return `a write of ${record.method} ${pathname}, which no operation of this sandbox answers (give --operations <file> if one of your own declares it)`
  }
}
