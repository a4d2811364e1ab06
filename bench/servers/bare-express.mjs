/**
 * Baseline: a bare Express 5 app (default settings) answering the benchmarked
 * routes with fixed JSON. Prints its URL once listening.
 */
import express from 'express'

const accountStatus = {
  payouts_enabled: true,
  charges_enabled: true,
  disabled_reason: null,
  requirements: { past_due: [], currently_due: [], pending_verification: [], eventually_due: [] },
}

const app = express()
app.get('/payprov/account-status', (_req, res) => {
  res.json(accountStatus)
})
app.post('/users/:targetPublicId/follow', (_req, res) => {
  res.status(201).json({ success: true })
})
const server = app.listen(portFromArgs(), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})

/** `--port <n>` or `--port=<n>`; other flags (such as `--quiet`) are ignored. */
function portFromArgs() {
  const args = process.argv.slice(2)
  const index = args.findIndex((arg) => arg === '--port' || arg.startsWith('--port='))
  if (index === -1) return 0
  const value = args[index].includes('=') ? args[index].split('=')[1] : args[index + 1]
  return Number(value)
}
