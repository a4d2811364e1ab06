import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestCli } from '../../../test-support/server/test-cli.ts'
import { fetchSync } from './fetch-sync.ts'

let local: Server | undefined
afterEach(() => {
  local?.close()
  local = undefined
})

describe('fetchSync', () => {
  it("answers with a server's status and body, headers sent", async () => {
    const cli = startTestCli([])
    try {
      const url = await cli.url
      const answer = fetchSync(`${url}/__sandbox/requests?session=sync-test`, {
        headers: { 'x-sandbox-session': 'sync-test' },
      })
      expect(answer).toEqual({ status: 200, text: '[]' })
      expect(fetchSync(`${url}/nowhere`).status).toBe(404)
    } finally {
      await cli.stop()
    }
  })

  it('fails, naming the likely cause, when a server of this same thread cannot answer', async () => {
    local = createServer((_request, response) => response.end('never sent in time'))
    await new Promise<void>((resolve) => local!.listen(0, '127.0.0.1', resolve))
    const { port } = local.address() as AddressInfo
    expect(() => fetchSync(`http://127.0.0.1:${port}/`, {}, 300)).toThrow(
      `Failed to read http://127.0.0.1:${port}/: no answer within 300 ms (is the server running in this same process?)`,
    )
  })

  it('fails with the reason when nothing listens', async () => {
    local = createServer()
    await new Promise<void>((resolve) => local!.listen(0, '127.0.0.1', resolve))
    const { port } = local.address() as AddressInfo
    await new Promise((resolve) => local!.close(resolve))
    local = undefined
    expect(() => fetchSync(`http://127.0.0.1:${port}/`)).toThrow(
      new RegExp(`^Failed to read http://127\\.0\\.0\\.1:${port}/: .*ECONNREFUSED`),
    )
  })
})
