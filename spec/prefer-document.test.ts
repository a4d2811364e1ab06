import { describe, expect, it } from 'vitest'
import { faultRuleSchema, faultStatuses } from '../mocks/core/fault-rules.ts'
import { buildMergedDocument } from './build-document.ts'

type Json = Record<string, any>

describe('Prefer and fault rules in the merged document', () => {
  it('lets every platform operation take the Prefer header', async () => {
    const merged = (await buildMergedDocument()) as Json
    const platform = Object.entries(merged.paths as Json).filter(
      ([path]) => !path.startsWith('/__sandbox'),
    )
    expect(platform).toHaveLength(13)
    for (const [path, item] of platform) {
      for (const operation of Object.values(item as Json)) {
        const refs = (operation.parameters as Json[]).map((parameter) => parameter.$ref)
        expect(refs, path).toContain('#/components/parameters/SandboxPrefer')
      }
    }
    expect(merged.components.parameters.SandboxPrefer).toMatchObject({
      name: 'Prefer',
      in: 'header',
      required: false,
    })
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
    expect(Object.keys(responses.TooManyRequests.headers)).toContain('Retry-After')
    expect(Object.keys(responses.ServiceUnavailable.headers)).toContain('Retry-After')
    expect(Object.keys(responses.BadGateway.headers ?? {})).not.toContain('Retry-After')
    expect(Object.keys(responses.GatewayTimeout.headers ?? {})).not.toContain('Retry-After')
    // The statuses a rule may give are the ones the document lists for it.
    expect(schemas.SandboxFaultRule.properties.status.enum).toEqual(faultStatuses)
  })

  it('documents every fault rule field and closes the rule object', async () => {
    const merged = (await buildMergedDocument()) as Json
    const rule = merged.components.schemas.SandboxFaultRule
    expect(rule.additionalProperties).toBe(false)
    // The schema the sandbox validates with and the documented one have the same fields.
    expect(Object.keys(rule.properties).sort()).toEqual(
      [...Object.keys(faultRuleSchema.shape), 'remaining'].sort(),
    )
  })
})
