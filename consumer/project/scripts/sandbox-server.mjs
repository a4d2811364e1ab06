// A plain Node script: the sandbox server started in your own process, on a free port.
import assert from 'node:assert/strict'
import { getPersona } from 'platform-sandbox'
import { startServer } from 'platform-sandbox/server'

const { url, sandbox, close } = await startServer({ port: 0, quiet: true })
try {
  const refresh = await fetch(`${url}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: getPersona('host').refreshToken }),
  })
  assert.equal(refresh.status, 200)
  const { accessToken } = /** @type {{ accessToken: string }} */ (await refresh.json())

  const decline = await fetch(`${url}/bookings/bkg_pending/decline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'Fully booked' }),
  })
  assert.equal(decline.status, 201)

  const store = await sandbox.store()
  assert.equal(store.bookings.get('bkg_pending')?.status, 'declined')
  console.log(`bkg_pending declined on ${url}`)
} finally {
  await close()
}
