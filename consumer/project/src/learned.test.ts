import { createPlatformClient } from 'platform-sandbox/client'
import { scenarioFromHar, setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, beforeAll, expect, it } from 'vitest'

// A staging session recorded with `platform-sandbox record`: the host usr_2b9e41 read their
// payment account, declined booking bkg_7f3a9c and archived a notification. `at: 'end'`: the
// state where the recording stopped.
const learned = await scenarioFromHar('recordings/staging-session.har', {
  name: 'staging-session',
  at: 'end',
})
const { server } = setupSandboxServer({ scenarios: [learned], scenario: 'staging-session' })
const api = createPlatformClient({ baseUrl: 'http://localhost:4010' })

beforeAll(() => server.listen())
afterAll(() => server.close())

it('carries on from the state the recording showed', async () => {
  // The recorded host, signed in with the refresh token the learned scenario gives them (a
  // persona, such as usr_host, keeps its own: getPersona('host').refreshToken).
  const host = learned.add?.users?.find((user) => user.publicId === 'usr_2b9e41')
  const signedIn = await api.POST('/auth/refresh', {
    body: { refreshToken: host?.refreshToken ?? '' },
  })
  const headers = { authorization: `Bearer ${signedIn.data?.accessToken}` }

  const status = await api.GET('/payprov/account-status', { headers })
  expect(status.data?.disabled_reason).toBe('requirements.past_due')

  // Declined in the recording: declining it again is a conflict, as on staging.
  const again = await api.POST('/bookings/{bookingId}/decline', {
    params: { path: { bookingId: 'bkg_7f3a9c' } },
    headers,
    body: {},
  })
  expect(again.response.status).toBe(409)
})
