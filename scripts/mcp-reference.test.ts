import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderToolReference, withCurrentReference } from './mcp-reference.ts'

const guide = readFileSync(new URL('../docs/agents/mcp.md', import.meta.url), 'utf8')

describe('the tool reference of the guide', () => {
  it('is the one the tool table renders (npm run docs:mcp writes it)', () => {
    expect(withCurrentReference(guide)).toBe(guide)
    expect(guide).toContain(renderToolReference())
  })
})
