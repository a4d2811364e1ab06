/**
 * Baseline: a bare node:http forwarding proxy, `--target <url>`: the request and the
 * answer piped through, hop-by-hop headers dropped, nothing kept. What the recorder
 * (`platform-sandbox record`) is compared with. Prints its URL once listening.
 */
import { createServer, request } from 'node:http'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

function endToEnd(headers) {
  const kept = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name)) kept[name] = value
  }
  return kept
}

const args = process.argv.slice(2)
const target = new URL(args[args.indexOf('--target') + 1])

const server = createServer((req, res) => {
  const headers = endToEnd(req.headers)
  headers.host = target.host
  const upstream = request(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers))
      answer.pipe(res)
    },
  )
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502)
    res.end()
  })
  req.pipe(upstream)
})
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})
