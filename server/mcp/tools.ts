/**
 * @module
 * Every tool, in the order `tools/list` gives them: one per operation of the operation
 * table, then the control tools. The guide's tool reference is rendered from this list.
 */
import { operations } from '../../mocks/operations/table.ts'
import { controlTools } from './control-tools.ts'
import { operationTool } from './operation-tools.ts'
import type { SandboxTool } from './tool.ts'

export const tools: readonly SandboxTool[] = [...operations.map(operationTool), ...controlTools]

export const toolsByName: ReadonlyMap<string, SandboxTool> = new Map(
  tools.map((tool) => [tool.name, tool]),
)
