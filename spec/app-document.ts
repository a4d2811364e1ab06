/**
 * @module
 * The API as an app calls it (`platform-sandbox/openapi.app.json`), for code generators: the
 * merged document's 13 operations with the sandbox's decisions, without the control API, the
 * sandbox-only headers (`x-sandbox-*`, `Prefer`) and the request examples the sandbox refuses.
 */
/** An OpenAPI 3.1 document, typed only as far as the sandbox relies on it. */
export interface OpenAPIDocument {
  openapi: string
  info: { title: string; version: string; [key: string]: unknown }
  paths: Record<string, Record<string, unknown>>
  components?: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

/** Component names of the sandbox's own parts, which the app document leaves out. */
const SANDBOX_COMPONENT = /^Sandbox/
const CONTROL_PATH = /^\/__sandbox(\/|$)/
const SANDBOX_TAG = 'Sandbox control'
/** What the merged document says about sandbox-only headers inside shared prose. */
const SANDBOX_SESSION_CLAUSE = /,? or a malformed `x-sandbox-session`/g
/**
 * How the sandbox is asked for a gateway's answer (429, 502, 503, 504): the app document
 * keeps those answers, which a real deployment's gateway gives too, without the sentence.
 */
const SANDBOX_ASKED_CLAUSE =
  / The sandbox gives it only when asked, by a fault rule of `[^`]*` or `[^`]*`\./g

export interface AppDocumentOptions {
  /**
   * The example names the sandbox answers with a success, by operationId (the recorded
   * exchanges of `spec/examples/` with a 2xx answer). Request examples of other names are
   * left out, so that every request example is one the sandbox accepts.
   */
  acceptedExamples: ReadonlyMap<string, ReadonlySet<string>>
  /** Where the app document says the API is; default the standalone sandbox's address. */
  serverUrl?: string
}

/** Derives the app document from the merged document (which it does not change). */
export function createAppDocument(
  merged: OpenAPIDocument,
  options: AppDocumentOptions,
): OpenAPIDocument {
  const document = structuredClone(merged)
  const { 'x-sandbox-overlay': _overlay, ...info } = document.info
  document.info = {
    ...info,
    description:
      'The Platform Backend API as an app calls it: the published contract with the ' +
      "sandbox's decisions for what the reference leaves open (request bodies, error " +
      'statuses, who may call each operation), without the sandbox’s control API and ' +
      'headers. Made for code generators; generated from the merged document.',
  }
  document.servers = [
    {
      url: options.serverUrl ?? 'http://localhost:4010',
      description:
        'The sandbox (`npx platform-sandbox`); point the client at the real backend in production',
    },
  ]
  if (Array.isArray(document.tags)) {
    document.tags = document.tags.filter((tag) => (tag as { name?: unknown }).name !== SANDBOX_TAG)
  }
  for (const path of Object.keys(document.paths)) {
    if (CONTROL_PATH.test(path)) {
      delete document.paths[path]
      continue
    }
    for (const operation of Object.values(document.paths[path] ?? {})) {
      if (isRecord(operation)) cleanOperation(operation, options.acceptedExamples)
    }
  }
  const responses = document.components?.responses
  cleanResponses(responses)
  for (const [name, description] of Object.entries(GATEWAY_DESCRIPTIONS)) {
    if (isRecord(responses?.[name])) responses[name].description = description
  }
  removeUnusedComponents(document)
  return JSON.parse(
    JSON.stringify(document).replace(SANDBOX_SESSION_CLAUSE, '').replace(SANDBOX_ASKED_CLAUSE, ''),
  )
}

/**
 * Drops the components nothing refers to any more (the control API's, and shared responses
 * that every operation inlined to carry its own examples), so generators emit none of them.
 */
function removeUnusedComponents(document: OpenAPIDocument): void {
  let removed = true
  while (removed) {
    removed = false
    const text = JSON.stringify(document)
    for (const [kind, entries] of Object.entries(document.components ?? {})) {
      if (kind === 'securitySchemes') continue
      for (const name of Object.keys(entries)) {
        if (text.includes(`"#/components/${kind}/${name}"`)) continue
        delete entries[name]
        removed = true
      }
      if (Object.keys(entries).length === 0) delete document.components?.[kind]
    }
  }
}

function cleanOperation(
  operation: Record<string, unknown>,
  acceptedExamples: ReadonlyMap<string, ReadonlySet<string>>,
): void {
  if (Array.isArray(operation.parameters)) {
    const parameters: unknown[] = operation.parameters
      .filter((parameter) => !isSandboxParameter(parameter))
      .map((parameter) =>
        isRecord(parameter) && parameter.name === 'dryRun'
          ? { ...parameter, required: false }
          : parameter,
      )
    if (parameters.length === 0) delete operation.parameters
    else operation.parameters = parameters
  }
  const accepted = acceptedExamples.get(String(operation.operationId)) ?? new Set<string>()
  const body = isRecord(operation.requestBody) ? operation.requestBody : undefined
  for (const media of Object.values(isRecord(body?.content) ? body.content : {})) {
    if (!isRecord(media) || !isRecord(media.examples)) continue
    for (const name of Object.keys(media.examples)) {
      if (!accepted.has(name)) delete media.examples[name]
    }
    if (Object.keys(media.examples).length === 0) delete media.examples
  }
  cleanResponses(operation.responses)
}

/** Drops the `x-sandbox-*` response headers of each response. */
function cleanResponses(responses: unknown): void {
  for (const response of Object.values(isRecord(responses) ? responses : {})) {
    if (!isRecord(response)) continue
    // A `$ref` with a description of its own: the sandbox's note on the session header.
    if (typeof response.$ref === 'string') delete response.description
    if (!isRecord(response.headers)) continue
    for (const name of Object.keys(response.headers)) {
      if (name.toLowerCase().startsWith('x-sandbox-')) delete response.headers[name]
      // The cookie's example names no persona; the sandbox would refuse it.
      else if (isRecord(response.headers[name])) delete response.headers[name].example
    }
    if (Object.keys(response.headers).length === 0) delete response.headers
  }
}

/** What an app should know of a gateway's answers, without how the sandbox is asked for them. */
const GATEWAY_DESCRIPTIONS: Record<string, string> = {
  TooManyRequests:
    'Too many requests: the gateway in front of the backend limits the rate. Retry after `Retry-After` seconds.',
  BadGateway: 'Bad gateway: the gateway got no usable answer from the backend.',
  ServiceUnavailable:
    'Service unavailable: the backend is down or overloaded. Retry after `Retry-After` seconds.',
  GatewayTimeout: 'Gateway timeout: the backend did not answer the gateway in time.',
}

function isSandboxParameter(parameter: unknown): boolean {
  if (!isRecord(parameter)) return false
  if (typeof parameter.$ref === 'string') {
    return SANDBOX_COMPONENT.test(parameter.$ref.split('/').at(-1) ?? '')
  }
  const name = String(parameter.name).toLowerCase()
  return parameter.in === 'header' && (name === 'prefer' || name.startsWith('x-sandbox-'))
}

/** A JSON object (not an array, not `null`). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The recorded exchanges the sandbox answers with a success, by operationId. */
export function acceptedExampleNames(
  examples: ReadonlyArray<{ operationId: string; name: string; response: { status: number } }>,
): Map<string, Set<string>> {
  const accepted = new Map<string, Set<string>>()
  for (const { operationId, name, response } of examples) {
    if (response.status < 200 || response.status > 299) continue
    const names = accepted.get(operationId) ?? new Set<string>()
    accepted.set(operationId, names.add(name))
  }
  return accepted
}
