import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordedExamples, recordedRequestUrl } from '../spec/examples/index.ts'
import { type PreparedDocuments, prepareDocuments } from './documents.ts'
import { runningChildren } from './prism/child-processes.ts'
import { type RunningPrism, startPrism } from './prism/start-prism.ts'

let documents: PreparedDocuments
let prism: RunningPrism | undefined

beforeAll(async () => {
  documents = await prepareDocuments({ kinds: ['merged'] })
  const merged = documents.documents.find((document) => document.kind === 'merged')!
  prism = await startPrism({ mode: 'mock', document: merged.path, label: 'merged contract mock' })
}, 60_000)

afterAll(async () => {
  await prism?.stop()
  await documents.cleanup()
  expect(runningChildren()).toBe(0)
})

async function ask(
  method: string,
  url: string,
  prefer: string,
  options: { authorization?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { prefer }
  if (options.authorization) headers.authorization = options.authorization
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${prism!.url}${url}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  return {
    status: response.status,
    violations: response.headers.get('sl-violations'),
    body: await response.json(),
  }
}

describe('prism mock on the merged contract', () => {
  it.each(
    recordedExamples.map((example) => ({
      ...example,
      title: `${example.operationId}/${example.name}`,
    })),
  )('serves the recorded example $title', async (example) => {
    const authorization =
      example.request.authorization ?? (example.request.as ? 'Bearer any-token' : undefined)

    const answer = await ask(
      example.method,
      recordedRequestUrl(example),
      `code=${example.response.status}, example=${example.name}`,
      {
        ...(authorization ? { authorization } : {}),
        ...(example.request.body === undefined ? {} : { body: example.request.body }),
      },
    )

    expect(answer).toEqual({
      status: example.response.status,
      violations: null,
      body: example.response.body,
    })
  })

  it('serves the reference’s own examples too', async () => {
    const body = { refreshToken: 'rt_example.c2FuZGJveC1leGFtcGxl' }

    const token = await ask('POST', '/auth/refresh', 'example=accessToken', { body })
    const error = await ask('POST', '/auth/refresh', 'code=400, example=validationFailed', { body })

    expect(token.body.accessToken).toMatch(/^eyJ/)
    expect(error.body).toEqual({
      message: 'Validation failed',
      code: 'BAD_REQUEST',
      details: ['startsAt must be a valid ISO 8601 date string'],
    })
  })
})
