/**
 * @module
 * Test helper: sends the requests of a HAR again, in order, to a sandbox started on the
 * scenario learned from it, and gives each covered exchange's recorded and replayed
 * status. A bearer token is replaced by a fresh one of the user it named, signed in with
 * that user's refresh token in the learned scenario (or the persona's).
 */

import { personas } from '../../fixtures/personas.ts'
import {
  type PersonaCredentials,
  type PlainRequest,
  signInWith,
} from '../../mocks/sandbox-client/sandbox-client.ts'
import type { ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'
import type { Har } from '../../recordings/har.ts'
import { bearerSubject } from '../../recordings/record/redact.ts'

export interface ReplayedStatus {
  label: string
  recorded: number
  replayed: number
}

const DROPPED = new Set([
  'authorization',
  'host',
  'content-length',
  'connection',
  'x-sandbox-session',
])

function refreshTokenOf(scenario: ScenarioFile, publicId: string): string | undefined {
  const users = [...(scenario.add?.users ?? []), ...(scenario.change?.users ?? [])]
  const user = users.find((candidate) => candidate.publicId === publicId && candidate.refreshToken)
  return (
    user?.refreshToken ?? personas.find((persona) => persona.publicId === publicId)?.refreshToken
  )
}

/** Replays the entries of `har` but those in `skip` (indexes) through `send`, in order. */
export async function replayHar(
  har: Har,
  scenario: ScenarioFile,
  skip: ReadonlySet<number>,
  send: (request: PlainRequest) => Promise<{ status: number; body: unknown }>,
): Promise<ReplayedStatus[]> {
  const tokens = new Map<string, string>()
  const replayed: ReplayedStatus[] = []
  for (const [index, entry] of har.log.entries.entries()) {
    if (skip.has(index)) continue
    const url = new URL(entry.request.url)
    const headers: Record<string, string> = {}
    for (const { name, value } of entry.request.headers) {
      if (!DROPPED.has(name.toLowerCase())) headers[name.toLowerCase()] = value
    }
    const authorization = entry.request.headers.find(
      (header) => header.name.toLowerCase() === 'authorization',
    )?.value
    if (authorization !== undefined) {
      const subject = bearerSubject(authorization)
      const refreshToken = subject === undefined ? undefined : refreshTokenOf(scenario, subject)
      if (subject !== undefined && refreshToken !== undefined) {
        let token = tokens.get(subject)
        if (!token) {
          token = await signInWith(send, {
            key: subject as PersonaCredentials['key'],
            refreshToken,
          })
          tokens.set(subject, token)
        }
        headers.authorization = `Bearer ${token}`
      } else headers.authorization = authorization
    }
    const answer = await send({
      method: entry.request.method,
      url: url.pathname + url.search,
      headers,
      ...(entry.request.postData?.text ? { body: entry.request.postData.text } : {}),
    })
    replayed.push({
      label: `#${index + 1} ${entry.request.method} ${url.pathname}${url.search}`,
      recorded: entry.response.status,
      replayed: answer.status,
    })
  }
  return replayed
}
