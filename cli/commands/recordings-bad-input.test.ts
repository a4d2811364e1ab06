import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test-support/recordings/test-run-cli.ts'

let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sandbox-bad-input-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Runs the command and expects exit code 2 with exactly one line on standard error. */
async function refused(args: string[]): Promise<string> {
  const run = runCli(args)
  expect(await run.exited).toBe(2)
  const lines = run.stderr().trim().split('\n')
  expect(lines).toHaveLength(1)
  return lines[0]!
}

/** `record` into `out`, against a target nothing listens on. */
const recordInto = (out: string) => [
  'record',
  '--target',
  'http://127.0.0.1:9',
  '--port',
  '0',
  '--out',
  out,
]

describe('bad input to the recorded-traffic commands', () => {
  it('record: a target that is not http(s)', async () => {
    expect(await refused(['record', '--target', 'file:///etc/passwd', '--port', '0'])).toBe(
      'platform-sandbox: target "file:///etc/passwd" is not an http(s) URL (protocol file:)',
    )
  })

  it('record: an output path that cannot be written', async () => {
    const out = join(folder, 'missing-folder', 'out.har')
    expect(
      await refused(['record', '--target', 'http://127.0.0.1:9', '--port', '0', '--out', out]),
    ).toBe(`platform-sandbox: ${out}: cannot be written (its folder does not exist)`)
  })

  it('record: an existing output file that is not a HAR is left as it was', async () => {
    const out = join(folder, 'notes.har')
    writeFileSync(out, '{"hello": "world"}')
    const line = await refused(recordInto(out))
    expect(line).toBe(
      `platform-sandbox: ${out}: neither a HAR document (no "log") nor an examples file (no "examples"); not appending to it`,
    )
    expect(readFileSync(out, 'utf8')).toBe('{"hello": "world"}')
  })

  it('record: an existing output file that is not JSON is left as it was', async () => {
    const out = join(folder, 'notes.txt.har')
    writeFileSync(out, 'notes\n')
    expect(await refused(recordInto(out))).toMatch(
      new RegExp(`^platform-sandbox: ${out}: is not valid JSON \\(`),
    )
    expect(readFileSync(out, 'utf8')).toBe('notes\n')
  })

  it('record: an existing output file that is an examples file is left as it was', async () => {
    const out = join(folder, 'declineBooking.examples.json')
    const text = readFileSync(
      new URL('../../spec/examples/declineBooking.json', import.meta.url),
      'utf8',
    )
    writeFileSync(out, text)
    const line = await refused(recordInto(out))
    expect(line).toBe(
      `platform-sandbox: ${out}: an examples file, not a HAR document; not appending to it`,
    )
    expect(readFileSync(out, 'utf8')).toBe(text)
  })

  it('--replay: an examples file that is malformed', async () => {
    const file = join(folder, 'declineBooking.json')
    writeFileSync(file, JSON.stringify({ operationId: 'declineBooking', examples: { x: {} } }))
    const line = await refused(['--port', '0', '--replay', file])
    expect(line).toMatch(new RegExp(`^platform-sandbox: ${file}: not an examples file: `))
  })

  it('--replay: a file that is not JSON', async () => {
    const file = join(folder, 'broken.har')
    writeFileSync(file, '{"log": ')
    const line = await refused(['--port', '0', '--replay', file])
    expect(line).toMatch(new RegExp(`^platform-sandbox: ${file}: is not valid JSON \\(`))
  })

  it('a short file that is not JSON, line breaks and all, is named on one line', async () => {
    const file = join(folder, 'notes.txt')
    writeFileSync(file, 'just text\nmore text\r\n')
    const out = join(folder, 'notes-txt.yaml')
    const learn = await refused(['scenario', 'from-har', file, '--out', out])
    expect(learn).toMatch(new RegExp(`^platform-sandbox: ${file}: is not valid JSON \\(.*\\\\n`))
    expect(existsSync(out)).toBe(false)
    const replay = await refused(['--port', '0', '--replay', file])
    expect(replay).toMatch(new RegExp(`^platform-sandbox: ${file}: is not valid JSON \\(`))
  })

  it('scenario from-har: a JSON file that is not a HAR, and nothing written', async () => {
    const file = join(folder, 'notes.json')
    writeFileSync(file, '{"entries": []}')
    const out = join(folder, 'notes.yaml')
    expect(await refused(['scenario', 'from-har', file, '--out', out])).toBe(
      `platform-sandbox: ${file}: not a HAR 1.2 document: log.entries: expected an array`,
    )
    expect(existsSync(out)).toBe(false)
  })

  it('scenario from-har: an entry that is not a HAR entry is named', async () => {
    const file = join(folder, 'odd.har')
    writeFileSync(file, JSON.stringify({ log: { entries: [{ request: { method: 'GET' } }] } }))
    expect(await refused(['scenario', 'from-har', file, '--out', join(folder, 'odd.yaml')])).toBe(
      `platform-sandbox: ${file}: not a HAR 1.2 document: log.entries.0.request.url: expected a string`,
    )
  })

  it('scenario from-har and --replay: a syntax error is named by its line and column', async () => {
    const file = join(folder, 'indented.har')
    const text = JSON.stringify({ log: { entries: [{ response: { status: 200 } }] } }, null, 2)
    writeFileSync(file, text.replace('"status": 200', '"status": 2OO'))
    const where = `${file}: is not valid JSON (Expected ',' or '}' after property value in JSON at position 81 (line 6 column 22))`
    const out = join(folder, 'indented.yaml')
    expect(await refused(['scenario', 'from-har', file, '--out', out])).toBe(
      `platform-sandbox: ${where}`,
    )
    expect(existsSync(out)).toBe(false)
    expect(await refused(['--port', '0', '--replay', file])).toBe(`platform-sandbox: ${where}`)
  })

  it('scenario from-har: an unknown scenario to extend', async () => {
    const file = join(folder, 'empty.har')
    writeFileSync(file, JSON.stringify({ log: { entries: [] } }))
    expect(await refused(['scenario', 'from-har', file, '--extends', 'nope'])).toBe(
      'platform-sandbox: --extends: unknown scenario "nope" (known: default, empty, large)',
    )
  })

  it('diff: a report path that cannot be written', async () => {
    const line = await refused(['diff', '--target', 'http://127.0.0.1:9', '--report', folder])
    expect(line).toBe(`platform-sandbox: ${folder}: cannot be written (it is a directory)`)
  })
})
