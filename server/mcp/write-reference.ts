/**
 * Writes the tool reference into `docs/agents/mcp.md` (see `reference.ts`).
 *
 * Usage: `npm run docs:mcp`
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withCurrentReference } from './reference.ts'

export const GUIDE_PATH = fileURLToPath(new URL('../../docs/agents/mcp.md', import.meta.url))

const guide = readFileSync(GUIDE_PATH, 'utf8')
const current = withCurrentReference(guide)
if (current !== guide) writeFileSync(GUIDE_PATH, current)
console.log(
  `tool reference: ${current === guide ? 'already current' : 'written'} (docs/agents/mcp.md)`,
)
