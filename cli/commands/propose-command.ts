/**
 * @module
 * `platform-sandbox propose --operations <file> [--out <file>] [--document]`: the operations of
 * your own as a proposal for the backend team, an OpenAPI Overlay 1.0 document on the published
 * contract (one action per operation: its path, parameters, schemas, security and examples, as
 * the served document has them; one for the `Proposed` tag); with `--document`, the published
 * contract with the overlay applied. A `.yaml` or `.yml` out file is written as YAML.
 */
import { writeFileSync } from 'node:fs'
import { stringify } from 'yaml'
import { proposedDocument } from '../../mocks/core/index.ts'
import published from '../../spec/published-document.ts'
import { sandboxOperations } from '../operations-file.ts'

export interface ProposeCommandOptions {
  operations: string
  out?: string
  document?: boolean
}

type PathItems = Record<string, Record<string, { operationId: string; summary: string }>>

export async function runProposeCommand(options: ProposeCommandOptions): Promise<void> {
  const operations = await sandboxOperations(options.operations)
  const proposed = proposedDocument({ paths: {} as PathItems, tags: [] as object[] }, operations)
  const actions = Object.entries(proposed.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      target: '$.paths',
      description: `Proposes ${operation.operationId}, ${method.toUpperCase()} ${path}: ${operation.summary}`,
      update: { [path]: { [method]: operation } },
    })),
  )
  const { title, version } = published.info
  const overlay = {
    overlay: '1.0.0',
    info: { title: `Operations proposed for ${title} ${version}`, version: '1.0.0' },
    actions: [
      ...actions,
      {
        target: '$',
        description: 'The tag of the proposed operations',
        update: { tags: proposed.tags },
      },
    ],
  }
  const whole = options.document ? proposedDocument(published, operations) : overlay
  const yaml = options.out !== undefined && /\.ya?ml$/.test(options.out)
  const text = yaml
    ? stringify(whole, { aliasDuplicateObjects: false })
    : `${JSON.stringify(whole, null, 2)}\n`
  if (options.out === undefined) return void process.stdout.write(text)
  writeFileSync(options.out, text)
  const what = options.document ? 'the published contract with' : 'an overlay of'
  console.error(
    `platform-sandbox: wrote ${what} ${actions.length} proposed operation${actions.length === 1 ? '' : 's'} to ${options.out}`,
  )
}
