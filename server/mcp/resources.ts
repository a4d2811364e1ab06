/**
 * @module
 * What an agent can read besides calling tools: the OpenAPI documents, personas, scenarios,
 * saved snapshots and a session's journal as HAR, through the control API of the sandbox.
 */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js'
import {
  acceptedExampleNames,
  createAppDocument,
  type OpenAPIDocument,
} from '../../spec/app-document.ts'
import { recordedExamples } from '../../spec/examples/index.ts'
import { describeRefusal, type McpConnection, sessionOf } from './tool.ts'

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'sandbox://journal/{session}.har',
    name: 'journal',
    title: 'A session’s journal as HAR',
    description:
      'Every request of the session and the answer it got, as an HTTP Archive (HAR 1.2): what Playwright’s routeFromHAR and the browser’s devtools read.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'sandbox://snapshots/{name}.json',
    name: 'snapshot',
    title: 'A saved snapshot as a scenario file',
    description:
      'A snapshot saved with saveSnapshot, as a scenario file that extends the scenario it descends from.',
    mimeType: 'application/json',
  },
] as const

/** The resources every connection has, each read with a GET of its `url`. */
const FIXED: readonly (Omit<Resource, 'mimeType'> & { url: string })[] = [
  {
    uri: 'sandbox://openapi/app.json',
    name: 'app-document',
    title: 'The app document (OpenAPI)',
    description:
      'The API as an app calls it: the published contract with the sandbox’s decisions, without the control API. What code generators take.',
    url: '/__sandbox/openapi.json',
  },
  {
    uri: 'sandbox://openapi/merged.json',
    name: 'merged-document',
    title: 'The merged document (OpenAPI)',
    description:
      'The published contract with the sandbox’s decisions, its control API and its recorded examples.',
    url: '/__sandbox/openapi.json',
  },
  {
    uri: 'sandbox://personas',
    name: 'personas',
    title: 'Personas',
    description: 'Every persona with its roles and fixed credentials (refresh token, idp code).',
    url: '/__sandbox/personas',
  },
  {
    uri: 'sandbox://scenarios',
    name: 'scenarios',
    title: 'Scenarios',
    description: 'The scenarios a session can be reset to, with their descriptions.',
    url: '/__sandbox/scenarios',
  },
  {
    uri: 'sandbox://snapshots',
    name: 'snapshots',
    title: 'Saved snapshots',
    description: 'The saved snapshots, each readable as sandbox://snapshots/{name}.json.',
    url: '/__sandbox/snapshots',
  },
]

/** The resources of a connection: the fixed ones and the journal of its session. */
export function listResources(connection: McpConnection): Resource[] {
  const session = sessionOf(undefined, connection)
  return [
    ...FIXED.map(({ url: _, ...resource }) => ({ ...resource, mimeType: 'application/json' })),
    {
      uri: `sandbox://journal/${session}.har`,
      name: 'journal',
      title: `The journal of session ${session} (HAR)`,
      mimeType: 'application/json',
    },
  ]
}

function urlOf(uri: string): string | undefined {
  const fixed = FIXED.find((resource) => resource.uri === uri)
  if (fixed) return fixed.url
  const journal = /^sandbox:\/\/journal\/([^/]+)\.har$/.exec(uri)
  if (journal) {
    return `/__sandbox/requests.har?session=${encodeURIComponent(decodeURIComponent(journal[1]!))}`
  }
  const snapshot = /^sandbox:\/\/snapshots\/([^/]+)\.json$/.exec(uri)
  return snapshot ? `/__sandbox/snapshots/${snapshot[1]}` : undefined
}

/** Reads one resource; an unknown URI or a refusal throws, as `resources/read` reports errors. */
export async function readResource(
  connection: McpConnection,
  uri: string,
): Promise<ReadResourceResult> {
  const url = urlOf(uri)
  if (url === undefined) throw new Error(`Unknown resource ${uri}`)
  const answer = await connection.backend.send({ method: 'GET', url })
  if (answer.status !== 200) {
    const { message, details } = describeRefusal(answer)
    throw new Error([`Failed to read ${uri}: ${message}`, ...details].join('; '))
  }
  const body =
    uri === 'sandbox://openapi/app.json'
      ? createAppDocument(answer.body as OpenAPIDocument, {
          acceptedExamples: acceptedExampleNames(recordedExamples),
          serverUrl: connection.backend.url,
        })
      : answer.body
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] }
}
