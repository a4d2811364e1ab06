import { describe, expect, it } from 'vitest'
import { faultRuleSchema } from '../mocks/core/fault-rules.ts'
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
