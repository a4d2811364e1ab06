/**
 * @module
 * Checks recorded answers against a contract document before they are replayed: an undocumented
 * status, or a JSON body that breaks the documented schema, is reported by the recording's name;
 * a request no operation of the API has is not checked.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { createRouter } from '../../mocks/core/index.ts'
import { operations } from '../../mocks/operations/table.ts'
import { parseJson } from './recordings.ts'
import type { RecordingCheck } from './replay.ts'

type JsonObject = Record<string, unknown>

const router = createRouter(operations.map((operation) => ({ ...operation, value: operation })))

const pointer = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')

/** The check of a recording against an OpenAPI 3.1 `document`; schemas compile on first use. */
export function createRecordingCheck(document: unknown): RecordingCheck {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false })
  ajv.addSchema(document as JsonObject, 'contract')
  const paths = (document as { paths?: Record<string, Record<string, JsonObject>> }).paths ?? {}
  return (recording) => {
    if (recording.path.startsWith('/__sandbox')) return undefined
    const operation = router(recording.method, recording.path)?.value
    if (!operation) return null
    const documented = paths[operation.path]?.[operation.method.toLowerCase()]
    if (!documented) {
      return `${recording.name}: no operation of the contract has this method and path`
    }
    const responses = (documented.responses ?? {}) as Record<string, JsonObject>
    const status = String(recording.response.status)
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses)
    if (!key) {
      return `${recording.name}: ${operation.id} does not document status ${status} (documented: ${Object.keys(responses).join(', ')})`
    }
    let location = ['paths', operation.path, operation.method.toLowerCase(), 'responses', key]
    let response = responses[key] as JsonObject
    const shared = response.$ref
    if (typeof shared === 'string' && shared.startsWith('#/')) {
      location = shared
        .slice(2)
        .split('/')
        .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
      response = location.reduce<unknown>(
        (node, token) => (node as JsonObject)?.[token],
        document,
      ) as JsonObject
    }
    const content = response?.content as Record<string, { schema?: unknown }> | undefined
    if (!content?.['application/json']?.schema || recording.response.body === undefined) {
      return undefined
    }
    const ref = `contract#/${[...location, 'content', 'application/json', 'schema'].map(pointer).join('/')}`
    const validate = ajv.getSchema(ref)!
    const { body } = recording.response
    if (validate(typeof body === 'string' ? parseJson(body) : body)) return undefined
    const error = validate.errors?.[0]
    return `${recording.name}: the ${status} answer of ${operation.id} breaks the contract: ${error?.instancePath || 'body'} ${error?.message ?? 'is invalid'}`
  }
}
