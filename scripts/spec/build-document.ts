/**
 * Builds the sandbox's merged contract: the published "Platform Backend API" document with the
 * sandbox's overlay applied by openapi-format, then the sandbox's recorded examples
 * (`spec/examples/`) added as OpenAPI `examples` by a second, generated overlay.
 *
 * @module
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { OpenAPIOverlayAction, OpenAPIOverlayOptions } from 'openapi-format'
import { openapiOverlay, parseFile } from 'openapi-format'
import type { OpenAPIDocument } from '../../spec/app-document.ts'
import { recordedExamples } from '../../spec/examples/index.ts'
import { withControlSchemas } from './control-schemas.ts'
import { createExampleActions } from './examples-overlay.ts'
import { withOperationExamples } from './operation-examples.ts'

const SPEC_DIR = fileURLToPath(new URL('../../spec', import.meta.url))

/** The published contract, transcribed from the backend team's reference. */
export const PUBLISHED_SPEC_PATH = resolve(SPEC_DIR, 'platform-api.openapi.yaml')

/** The sandbox's own decisions, as an OpenAPI Overlay 1.0 document. */
export const OVERLAY_PATH = resolve(SPEC_DIR, 'sandbox.overlay.yaml')

/** Where `scripts/spec/build-spec.ts` writes the merged document. */
export const MERGED_SPEC_PATH = resolve(SPEC_DIR, 'dist', 'platform-api.sandbox.openapi.json')

export interface BuildMergedDocumentOptions {
  /**
   * Accept overlay actions whose target matches nothing in the published contract.
   * Off by default: such an action means the published contract changed under a sandbox
   * decision, which must be looked at rather than silently dropped.
   */
  allowUnusedActions?: boolean
  /**
   * Apply the overlay to this published contract instead of the one its `extends` names, to
   * try a new reference before it replaces `platform-api.openapi.yaml`.
   */
  publishedPath?: string
}

/**
 * Reads the published contract as the backend team published it.
 *
 * @example
 * const published = await loadPublishedDocument()
 * Object.keys(published.paths) // ['/auth/refresh', '/payprov/account-status', ...]
 */
export async function loadPublishedDocument(): Promise<OpenAPIDocument> {
  return loadOpenApiFile(PUBLISHED_SPEC_PATH)
}

/**
 * Applies the sandbox overlay to the contract it `extends`, adds the recorded examples of
 * `spec/examples/` (as `examples`, path parameter examples, the persona they were recorded
 * for and the `Prefer` values of each operation) and the control API's rules generated from
 * its zod schemas (`control-schemas.ts`), and returns the merged document, the one the
 * sandbox serves at
 * `GET /__sandbox/openapi.json`.
 *
 * @example
 * const merged = await buildMergedDocument()
 * merged.paths['/__sandbox/health'] // the control API is part of the merged document
 */
export async function buildMergedDocument(
  options: BuildMergedDocumentOptions = {},
): Promise<OpenAPIDocument> {
  const overlay = await loadOverlay()
  const base = await loadOpenApiFile(options.publishedPath ?? resolveExtends(overlay))
  const decided = await applyOverlay(base, overlay, options, 'the sandbox overlay')
  const examples: OverlaySet = {
    overlay: '1.0.0',
    info: { title: 'Recorded examples of the sandbox (spec/examples/)', version: '1.0.0' },
    actions: createExampleActions(decided, recordedExamples),
  }
  const merged = await applyOverlay(decided, examples, {}, 'the recorded examples')
  return withoutUnusedResponses(
    withSessionCreatedHeader(withControlSchemas(withOperationExamples(merged, recordedExamples))),
  )
}

const SESSION_CREATED_HEADER = 'x-sandbox-session-created'

/**
 * Declares `x-sandbox-session-created` on every response: any answer, an operation's or a
 * control call's, is the one that created its session when the session was new.
 */
function withSessionCreatedHeader(document: OpenAPIDocument): OpenAPIDocument {
  const ref = { $ref: '#/components/headers/SandboxSessionCreated' }
  const declare = (response: unknown) => {
    if (!isRecord(response) || '$ref' in response) return
    const headers = isRecord(response.headers) ? response.headers : {}
    response.headers = { ...headers, [SESSION_CREATED_HEADER]: ref }
  }
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue
      for (const response of Object.values(operation.responses)) declare(response)
    }
  }
  for (const response of Object.values(document.components?.responses ?? {})) declare(response)
  return document
}

/**
 * Drops the shared responses nothing refers to any more: the recorded examples inline a
 * shared response into each operation that gets one (a reference cannot carry examples).
 */
function withoutUnusedResponses(document: OpenAPIDocument): OpenAPIDocument {
  const responses = document.components?.responses
  if (!responses) return document
  const text = JSON.stringify({
    ...document,
    components: { ...document.components, responses: {} },
  })
  for (const name of Object.keys(responses)) {
    if (!text.includes(`"#/components/responses/${name}"`)) delete responses[name]
  }
  return document
}

async function applyOverlay(
  document: OpenAPIDocument,
  overlaySet: OverlaySet,
  options: BuildMergedDocumentOptions,
  label: string,
): Promise<OpenAPIDocument> {
  const { data, resultData } = await openapiOverlay(document, { overlaySet })

  const unused = resultData.unusedActions
  if (!options.allowUnusedActions && Array.isArray(unused) && unused.length > 0) {
    const list = unused.map((action) => `- ${describeAction(action)}`).join('\n')
    throw new Error(
      `Failed to apply ${label}: ${unused.length} action(s) matched nothing in the published contract:\n${list}`,
    )
  }
  if (!isOpenApiDocument(data)) {
    throw new Error(`Failed to apply ${label}: the result is not an OpenAPI document`)
  }
  return data
}

type OverlaySet = OpenAPIOverlayOptions['overlaySet']

async function loadOverlay(): Promise<OverlaySet> {
  const parsed = await parseYamlOrJson(OVERLAY_PATH)
  if (!Array.isArray(parsed.actions) || typeof parsed.overlay !== 'string') {
    throw new Error(`Failed to read the overlay ${OVERLAY_PATH}: missing "overlay" or "actions"`)
  }
  return { ...parsed, overlay: parsed.overlay, actions: parsed.actions as OpenAPIOverlayAction[] }
}

/** Relative `extends` paths are resolved against the overlay file, as the Overlay spec says. */
function resolveExtends(overlay: OverlaySet): string {
  if (typeof overlay.extends !== 'string' || overlay.extends === '') {
    return PUBLISHED_SPEC_PATH
  }
  if (/^https?:\/\//.test(overlay.extends)) {
    throw new Error(`Failed to read the overlay ${OVERLAY_PATH}: "extends" must be a local file`)
  }
  return resolve(dirname(OVERLAY_PATH), overlay.extends)
}

async function loadOpenApiFile(filePath: string): Promise<OpenAPIDocument> {
  const parsed = await parseYamlOrJson(filePath)
  if (!isOpenApiDocument(parsed)) {
    throw new Error(`Failed to read ${filePath}: not an OpenAPI document`)
  }
  return parsed
}

async function parseYamlOrJson(filePath: string): Promise<Record<string, unknown>> {
  const parsed: unknown = await parseFile(filePath)
  if (parsed instanceof Error) {
    throw new Error(`Failed to parse ${filePath}: ${parsed.message}`, { cause: parsed })
  }
  if (!isRecord(parsed)) {
    throw new Error(`Failed to parse ${filePath}: the document is not an object`)
  }
  return parsed
}

function describeAction(action: unknown): string {
  if (!isRecord(action)) return String(action)
  const description = typeof action.description === 'string' ? ` (${action.description})` : ''
  return `${String(action.target)}${description}`
}

function isOpenApiDocument(value: unknown): value is OpenAPIDocument {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    isRecord(value.info) &&
    isRecord(value.paths)
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
