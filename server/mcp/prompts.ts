/**
 * @module
 * The guide's walks as MCP prompts (`prompts.json`, which the guide shows): set up the data a
 * screen shows, reproduce an error state. Each names the tools in the order to call them.
 */
import { ErrorCode, type GetPromptResult, McpError } from '@modelcontextprotocol/sdk/types.js'
import { operations } from '../../mocks/operations/table.ts'
import prompts from './prompts.json' with { type: 'json' }

export const listPrompts = () => prompts.map(({ text: _, ...prompt }) => prompt)

const refuse = (problem: string) => new McpError(ErrorCode.InvalidParams, problem)

export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const prompt = prompts.find((candidate) => candidate.name === name)
  if (!prompt) throw refuse(`name must be one of: ${prompts.map((p) => p.name).join(', ')}`)
  const missing = prompt.arguments.filter((argument) => !args[argument.name])
  if (missing.length > 0) throw refuse(missing.map((a) => `${a.name} is required`).join('; '))
  const operation = operations.find((candidate) => candidate.id === args.operationId)
  if (args.operationId && !operation) {
    throw refuse(`operationId must be one of: ${operations.map((o) => o.id).join(', ')}`)
  }
  const values: Record<string, string> = {
    ...args,
    method: operation?.method ?? '',
    path: operation?.path.replace(/\{(\w+)\}/g, ':$1') ?? '',
    answer: args.status === 'networkError' ? '"networkError": true' : `"status": ${args.status}`,
  }
  const text = prompt.text.join('\n').replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '')
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  }
}
