/**
 * @module
 * The typed client of the Platform Backend API (`platform-sandbox/client`), on openapi-fetch,
 * typed by the merged contract: it works against the sandbox and the real backend alike.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, operations, paths } from '../spec/generated/platform-api.d.ts'

export type PlatformClient = Client<paths>

export interface PlatformClientOptions extends ClientOptions {
  /** Where the API lives, e.g. `http://localhost:4010`. */
  baseUrl: string
}

/**
 * Creates a typed client of the API.
 *
 * @example
 * const api = createPlatformClient({ baseUrl: 'http://localhost:4010', credentials: 'include' })
 * const { data, error } = await api.POST('/auth/refresh', {
 *   params: { query: { dryRun: 'true' } },
 *   body: { refreshToken: 'rt_host.c2FuZGJveC1yZWZyZXNoOmhvc3Q' },
 * })
 * if (data) console.log(data.accessToken)
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  return createClient<paths>({
    // Looked up at each request, not kept from creation: msw's `server.listen()` replaces
    // `globalThis.fetch` after a client created at module level already exists.
    fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init),
    ...options,
  })
}

export type { components, operations, paths }
/** The error body of every refusal: `{ message, code, details? }`. */
export type ApiErrorResponse = components['schemas']['ApiErrorResponseDto']
