/**
 * @module
 * What binding to an interface other than loopback exposes, said at start-up: the
 * sandbox has no users of its own, so anyone who can reach the port can reset it, read
 * every collection (refresh tokens of the personas included) and read the journal.
 */

/** `localhost`, `127.0.0.0/8`, `::1` and their IPv4-mapped forms. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare) ||
    bare.endsWith('.localhost')
  )
}

/** `http://<host>:<port>` as bound, IPv6 in brackets. */
export function listenAddress(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`
}

/** The start-up warning for a non-loopback `host`, or `undefined` for loopback. */
export function exposureWarning(
  host: string,
  port: number,
  controlProtected: boolean,
): string | undefined {
  if (isLoopbackHost(host)) return undefined
  const everyone =
    host === '0.0.0.0' || host === '::' ? 'every network interface of this machine' : host
  const lines = [
    `Warning: listening on ${listenAddress(host, port)} exposes the sandbox on ${everyone}.`,
    '  Anyone who can reach this port can sign in as any persona (their refresh tokens and',
    '  idp codes are public), call every operation, and read and change every session.',
  ]
  if (controlProtected) {
    lines.push(
      '  The control API (/__sandbox/*, but /__sandbox/health) requires the control token.',
    )
  } else {
    lines.push(
      '  The control API is open too: /__sandbox/reset, /__sandbox/collections/:name (refresh',
      '  tokens included), /__sandbox/requests (the journal) and /__sandbox/personas.',
      '  Protect it with --control-token <token> (or SANDBOX_CONTROL_TOKEN).',
    )
  }
  return lines.join('\n')
}
