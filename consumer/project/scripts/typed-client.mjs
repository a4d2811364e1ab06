// The typed client against a running sandbox: `node scripts/typed-client.mjs http://localhost:4010`
import assert from 'node:assert/strict'
import { getPersona } from 'platform-sandbox'
import { createPlatformClient } from 'platform-sandbox/client'

const api = createPlatformClient({ baseUrl: process.argv[2] ?? 'http://localhost:4010' })

const refreshed = await api.POST('/auth/refresh', {
  body: { refreshToken: getPersona('host').refreshToken },
})
assert.ok(refreshed.data, `refresh failed: ${refreshed.error?.message}`)

const status = await api.GET('/payprov/account-status', {
  headers: { authorization: `Bearer ${refreshed.data.accessToken}` },
})
assert.ok(status.data, `account status failed: ${status.error?.message}`)
assert.equal(status.data.payouts_enabled, true)
console.log(`the host's payouts are enabled (${status.response.status})`)
