/**
 * @module
 * How a conformance case becomes a request: shared by the conformance runner, the contract
 * check and the `diff` command, which sends the cases to another backend.
 */
import { SESSION_HEADER } from '../../mocks/core/index.ts'
import type { CaseRequest } from './types.ts'

/**
 * The `fetch` options of a case's request in `session`: the session header, the bearer
 * token of `as` (from `accessToken`) or the raw `authorization`, the body (JSON or raw),
 * then the case's own headers over all of them. Shared by every way a case is sent.
 */
export async function caseRequestInit(
  testCase: CaseRequest,
  session: string,
  accessToken: (persona: NonNullable<CaseRequest['as']>) => Promise<string>,
): Promise<{ method: string; headers: Record<string, string>; body?: string }> {
  const headers: Record<string, string> = { [SESSION_HEADER]: session }
  if (testCase.as !== undefined) headers.authorization = `Bearer ${await accessToken(testCase.as)}`
  if (testCase.authorization !== undefined) headers.authorization = testCase.authorization
  let body: string | undefined
  if (testCase.rawBody !== undefined) body = testCase.rawBody
  else if (testCase.body !== undefined) {
    body = JSON.stringify(testCase.body)
    headers['content-type'] = 'application/json'
  }
  Object.assign(headers, testCase.headers)
  return { method: testCase.method, headers, ...(body === undefined ? {} : { body }) }
}
