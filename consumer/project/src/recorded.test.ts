import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, beforeAll, expect, it } from 'vitest'

// A HAR file recorded with `platform-sandbox record --target https://staging.example.com`.
const { server, replayProblems } = setupSandboxServer({
  replay: { recordings: 'recordings/staging.har' },
})

beforeAll(() => server.listen())
afterAll(() => server.close())

it('keeps the contract in every recorded answer', async () => {
  expect(await replayProblems).toEqual([])
})

it('answers a recorded request as recorded, and the rest from the model', async () => {
  const recorded = await fetch('http://localhost:4010/payprov/account-status')
  expect(recorded.status).toBe(200)
  // What staging answered: this recording holds a restricted account.
  expect(await recorded.json()).toMatchObject({ disabled_reason: 'requirements.past_due' })

  const modelled = await fetch('http://localhost:4010/users/usr_guest/follow', { method: 'POST' })
  expect(modelled.status).toBe(401)
})
