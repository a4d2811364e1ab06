/**
 * Baseline: a bare node:http server answering fixed JSON, the ceiling of what a
 * Node server can do on this machine. Prints its URL once listening.
 */
import { createServer } from 'node:http'

const accountStatus = JSON.stringify({
  payouts_enabled: true,
  charges_enabled: true,
  disabled_reason: null,
  requirements: { past_due: [], currently_due: [], pending_verification: [], eventually_due: [] },
})
const acknowledgement = JSON.stringify({ success: true })

const server = createServer((req, res) => {
  const post = req.method === 'POST'
  const body = post ? acknowledgement : accountStatus
  res.writeHead(post ? 201 : 200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
})
server.listen(portFromArgs(), '127.0.0.1', () => {
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
