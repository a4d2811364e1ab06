/**
 * @module
 * Test helpers: a sandbox server on an ephemeral port and a small `node:http`
 * client that keeps raw headers (every `Set-Cookie`, CORS headers) visible.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { type PersonaKey, personas } from '../../fixtures/personas.ts'
import { SESSION_HEADER, signInWith } from '../../mocks/sandbox-client/sandbox-client.ts'
import { parseJson } from '../../recordings/replay/recordings.ts'
import type { ServerOptions } from '../../server/options.ts'
import { type RunningServer, startServer } from '../../server/start-server.ts'

export interface TestResponse<T = unknown> {
  status: number
  headers: IncomingHttpHeaders
  text: string
  /** The parsed JSON body, or `undefined` when the body is empty or not JSON. */
  body: T
}

export interface TestRequest {
  method?: string
  /** A JSON value (sent as `application/json`) or a raw string. */
  body?: unknown
  headers?: Record<string, string>
  session?: string
  /** Signs in as this persona with a bearer token. */
  as?: PersonaKey
}

export interface TestClient {
  request<T = unknown>(path: string, init?: TestRequest): Promise<TestResponse<T>>
  /** An access token of the persona, from `POST /auth/refresh?dryRun=true`. */
  tokenFor(key: PersonaKey): Promise<string>
  /** `GET /__sandbox/collections/:name` in `session` (default session if omitted). */
  collection<T = Record<string, unknown>>(name: string, session?: string): Promise<T[]>
}

export function createTestClient(baseUrl: string): TestClient & { agent: Agent } {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  const tokens = new Map<string, string>()

  function request<T>(path: string, init: TestRequest = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...init.headers }
    if (init.session !== undefined) headers[SESSION_HEADER] = init.session
    let body: string | undefined
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
      headers['content-type'] ??= 'application/json'
    }
    const send = (authorization?: string) =>
      new Promise<TestResponse<T>>((resolve, reject) => {
        const req = httpRequest(
          new URL(path, baseUrl),
          {
            method: init.method ?? (body === undefined ? 'GET' : 'POST'),
            headers: authorization ? { ...headers, authorization } : headers,
            agent,
          },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (chunk: Buffer) => chunks.push(chunk))
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8')
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text,
                body: parseJson(text) as T,
              })
            })
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end(body)
      })
    if (!init.as) return send()
    return tokenFor(init.as).then((token) => send(`Bearer ${token}`))
  }

  async function tokenFor(key: PersonaKey): Promise<string> {
    const cached = tokens.get(key)
    if (cached) return cached
    const persona = personas.find((candidate) => candidate.key === key)
    if (!persona) throw new Error(`Failed to sign in: no persona "${key}"`)
    const accessToken = await signInWith(({ url, ...init }) => request(url, init), persona)
    tokens.set(key, accessToken)
    return accessToken
  }

  async function collection<T>(name: string, session?: string): Promise<T[]> {
    const response = await request<T[]>(
      `/__sandbox/collections/${name}`,
      session === undefined ? {} : { session },
    )
    if (response.status !== 200) {
      throw new Error(`Failed to read collection "${name}": ${response.status} ${response.text}`)
    }
    return response.body
  }

  return { agent, request, tokenFor, collection }
}

export type TestServer = RunningServer & TestClient

/** Starts a quiet sandbox server on a free port of 127.0.0.1, with a client bound to it. */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const running = await startServer({ port: 0, quiet: true, ...options })
  const client = createTestClient(running.url)
  return {
    ...running,
    ...client,
    async close() {
      client.agent.destroy()
      await running.close()
    },
  }
}
