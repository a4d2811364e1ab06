import { describe, expect, it } from 'vitest'
import { faultRuleSchema, faultStatuses } from '../mocks/core/index.ts'
import { createSandbox } from '../mocks/sandbox.ts'
import { signIn } from '../mocks/sandbox-client/sandbox-client.ts'
import { buildMergedDocument } from '../scripts/spec/build-document.ts'
import { getRecordedExample, recordedExamples, recordedRequestUrl } from './examples/index.ts'

type Json = Record<string, any>

/** The operation's `Prefer` header parameter. */
function preferOf(operation: Json): Json {
  return (operation.parameters as Json[]).find((parameter) => parameter.name === 'Prefer')!
}

describe('Prefer and fault rules in the merged document', () => {
  it('lets every platform operation take the Prefer header, offering only its own values', async () => {
    const merged = (await buildMergedDocument()) as Json
    const platform = Object.entries(merged.paths as Json).filter(
      ([path]) => !path.startsWith('/__sandbox'),
    )
    expect(platform).toHaveLength(13)
    for (const [path, item] of platform) {
      for (const operation of Object.values(item as Json)) {
        const prefer = preferOf(operation)
        expect(prefer, path).toMatchObject({ name: 'Prefer', in: 'header', required: false })
        const values = Object.values(prefer.examples as Json).map((example) => example.value)
        const names = recordedExamples
          .filter((example) => example.operationId === operation.operationId)
          .map((example) => example.name)
        // Every recorded example of the operation is offered, and no other.
        expect(
          values.filter((value) => value.startsWith('example=')),
          path,
        ).toEqual(names.map((name) => `example=${name}`))
        for (const value of values.filter((candidate) => candidate.startsWith('code='))) {
          expect(Object.keys(operation.responses), `${path} ${value}`).toContain(value.slice(5))
        }
      }
    }
    // The shared parameter is gone: each operation has a copy with its own examples.
    expect(merged.components.parameters.SandboxPrefer).toBeUndefined()
  })

  it('has the sandbox answer every offered Prefer value as documented', async () => {
    const merged = (await buildMergedDocument()) as Json
    const sandbox = createSandbox()
    let sent = 0
    for (const [path, item] of Object.entries(merged.paths as Json)) {
      if (path.startsWith('/__sandbox')) continue
      for (const operation of Object.values(item as Json)) {
        const success = recordedExamples.find(
          (example) =>
            example.operationId === operation.operationId && example.response.status < 300,
        )!
        for (const [key, { value }] of Object.entries(preferOf(operation).examples as Json)) {
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            'x-sandbox-session': `prefer-${operation.operationId}-${key}`,
            prefer: value,
          }
          if (success.request.as) {
            headers.authorization = `Bearer ${await signIn(sandbox, success.request.as as 'host')}`
          }
          const answer = await sandbox.handle({
            method: success.method,
            url: recordedRequestUrl(success),
            headers,
            body: success.method === 'GET' ? null : JSON.stringify(success.request.body ?? {}),
          })
          const where = `${operation.operationId} Prefer: ${value}`
          expect(Object.keys(operation.responses), where).toContain(String(answer.status))
          if (value.startsWith('example=')) {
            const recorded = getRecordedExample(operation.operationId, value.slice(8))
            expect({ status: answer.status, body: answer.body }, where).toEqual(recorded.response)
          } else if (value.startsWith('code=')) {
            expect(answer.status, where).toBe(Number(value.slice(5)))
          } else {
            expect(answer.status, where).toBe(success.response.status)
          }
          sent++
        }
      }
    }
    expect(sent).toBeGreaterThanOrEqual(13 * 3)
  })

  it("documents a gateway's 429, 502, 503 and 504 on every platform operation", async () => {
    const merged = (await buildMergedDocument()) as Json
    const platform = Object.entries(merged.paths as Json).filter(
      ([path]) => !path.startsWith('/__sandbox'),
    )
    for (const [path, item] of platform) {
      for (const operation of Object.values(item as Json)) {
        expect(operation.responses['429'], path).toEqual({
          $ref: '#/components/responses/TooManyRequests',
        })
        expect(operation.responses['502'].$ref, path).toBe('#/components/responses/BadGateway')
        expect(operation.responses['503'].$ref, path).toBe(
          '#/components/responses/ServiceUnavailable',
        )
        expect(operation.responses['504'].$ref, path).toBe('#/components/responses/GatewayTimeout')
      }
    }
    const { responses, schemas } = merged.components
    const codes = {
      TooManyRequests: 'TOO_MANY_REQUESTS',
      BadGateway: 'BAD_GATEWAY',
      ServiceUnavailable: 'SERVICE_UNAVAILABLE',
      GatewayTimeout: 'GATEWAY_TIMEOUT',
    }
    for (const [name, code] of Object.entries(codes)) {
      const content = responses[name].content['application/json']
      expect(content.schema).toEqual({ $ref: '#/components/schemas/ApiErrorResponseDto' })
      expect(Object.values(content.examples as Json)[0]).toMatchObject({ value: { code } })
      expect(schemas.ApiErrorResponseDto.properties.code.enum).toContain(code)
    }
    expect(Object.keys(responses.TooManyRequests.headers)).toEqual([
      'Retry-After',
      'x-sandbox-session-created',
    ])
    expect(Object.keys(responses.ServiceUnavailable.headers)).toEqual([
      'Retry-After',
      'x-sandbox-session-created',
    ])
    expect(Object.keys(responses.BadGateway.headers)).toEqual(['x-sandbox-session-created'])
    // The statuses a rule may give are the ones the document lists for it.
    expect(schemas.SandboxFaultRule.properties.status.enum).toEqual(faultStatuses)
  })

  it('documents every fault rule field and closes the rule object', async () => {
    const merged = (await buildMergedDocument()) as Json
    const rule = merged.components.schemas.SandboxFaultRule
    expect(rule.additionalProperties).toBe(false)
    // The schema the sandbox validates with and the documented one have the same fields.
    expect(Object.keys(rule.properties).sort()).toEqual(
      [...Object.keys(faultRuleSchema.shape), 'remaining', 'fired'].sort(),
    )
  })
})
