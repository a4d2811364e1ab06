import { describe, expect, it } from 'vitest'
import type { SandboxRequest } from '../../mocks/core/index.ts'
import { createSandbox } from '../../mocks/sandbox.ts'
import { replayGet } from '../../test-support/recordings/test-recordings.ts'
import { createHar, createHarEntry } from '../har.ts'
import { recordingsFile } from './read-file.ts'
import { type Recording, RecordingsFormatError } from './recordings.ts'
import { createReplay, type RecordingCheck } from './replay.ts'

function entry(path: string, body: unknown) {
  return createHarEntry({
    method: 'GET',
    url: `http://staging.test${path}`,
    requestHeaders: {},
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: JSON.stringify(body),
    startedDateTime: '2026-06-01T10:00:00.000Z',
    time: 1,
  })
}

const file = (name: string, text: string) => recordingsFile(name, new TextEncoder().encode(text))

/** A HAR file of `count` entries, `GET /users/u<i>/follow` each; `edit` changes its text. */
function harFile(count: number, edit: (text: string) => string = (text) => text) {
  const har = createHar(
    Array.from({ length: count }, (_, i) => entry(`/users/u${i}/follow`, { i })),
  )
  return file('recordings/staging.har', edit(JSON.stringify(har)))
}

async function send(sandbox: ReturnType<typeof createSandbox>, request: Partial<SandboxRequest>) {
  const answer = await sandbox.handle({ method: 'GET', url: '/', headers: {}, ...request })
  return { status: answer.status, body: answer.body }
}

describe('replay of a HAR file from its bytes', () => {
  it('answers like the parsed document, reading only the entries a request needs', () => {
    const replay = createReplay({ recordings: harFile(2000) })
    expect(replay.size).toBe(2000)
    expect(replay.answer(replayGet('/users/u1234/follow'))?.body).toBe('{"i":1234}')
    expect(replay.answer(replayGet('/users/u1234/other'))).toBeUndefined()
    expect(replay.recordings[5]?.name).toBe('#6 GET /users/u5/follow')
  })

  it('checks a recorded answer before it is first given, when the check is still loading', async () => {
    const sandbox = createSandbox({
      replay: {
        recordings: harFile(3, (text) => text.replace('{\\"i\\":2}', '{\\"i\\":\\"two\\"}')),
      },
    })
    const replay = sandbox.replay!
    const seen: string[] = []
    const check: RecordingCheck = (recording: Recording) => {
      seen.push(recording.name)
      return String(recording.response.body).includes('"two"')
        ? `${recording.name}: the answer breaks the contract`
        : undefined
    }
    let loaded!: (check: RecordingCheck) => void
    const problems = replay.checkAll(() => new Promise((resolve) => (loaded = resolve)))
    // The request waits for the check to load, then its recording is checked first.
    const answer = send(sandbox, { url: '/users/u2/follow' })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen).toEqual([])
    loaded(check)
    expect(await answer).toEqual({ status: 200, body: '{"i":"two"}' })
    expect(seen).toContain('#3 GET /users/u2/follow')
    // Each is checked once, and the problem is named.
    expect(await problems).toEqual(['#3 GET /users/u2/follow: the answer breaks the contract'])
    expect([...seen].sort()).toEqual([
      '#1 GET /users/u0/follow',
      '#2 GET /users/u1/follow',
      '#3 GET /users/u2/follow',
    ])
  })

  it('checks an entry the background check has not reached before answering with it', async () => {
    const replay = createReplay({ recordings: harFile(10_000) })
    const seen = new Set<string>()
    const problems = replay.checkAll(async () => (recording) => {
      // At least 5 µs each: the first slice (8 ms) cannot reach the last entry.
      const until = performance.now() + 0.005
      while (performance.now() < until) {}
      seen.add(recording.name)
      return recording.name.startsWith('#10000 ') ? `${recording.name}: breaks` : undefined
    })
    await replay.checkLoaded
    expect(seen.has('#10000 GET /users/u9999/follow')).toBe(false)
    expect(replay.answer(replayGet('/users/u9999/follow'))?.body).toBe('{"i":9999}')
    expect(seen.has('#10000 GET /users/u9999/follow')).toBe(true)
    expect(await problems).toEqual(['#10000 GET /users/u9999/follow: breaks'])
    expect(seen.size).toBe(10_000)
  })

  it('leaves the recordings of no operation out of the problems, and names them apart', async () => {
    const replay = createReplay({ recordings: harFile(5) })
    const problems = await replay.checkAll(
      async () => (recording) =>
        /u[13]\//.test(recording.name) ? null : `${recording.name}: breaks`,
    )
    expect(problems).toEqual([
      '#1 GET /users/u0/follow: breaks',
      '#3 GET /users/u2/follow: breaks',
      '#5 GET /users/u4/follow: breaks',
    ])
    expect(replay.notChecked).toEqual(['#2 GET /users/u1/follow', '#4 GET /users/u3/follow'])
  })

  it('names a malformed entry deep in the file when it is first read, and never answers with it', async () => {
    const recordings = harFile(10_000, (text) => {
      const at = text.indexOf('"status":200', text.indexOf('/users/u9000/follow'))
      return `${text.slice(0, at)}"status":"2OO"${text.slice(at + '"status":200'.length)}`
    })
    // The file parses: the load indexes it, the entry's own check fails on first use.
    const replay = createReplay({ recordings })
    expect(replay.answer(replayGet('/users/u9000/follow'))).toBeUndefined()
    expect(replay.answer(replayGet('/users/u8999/follow'))?.body).toBe('{"i":8999}')
    expect(replay.malformed).toHaveLength(1)
    expect(replay.malformed[0]).toBe(
      'recordings/staging.har: not a HAR 1.2 document: log.entries.9000.response.status: expected an HTTP status from 100 to 599',
    )
    // The check after load reports it with the others, in file order.
    expect(await replay.checkAll(async () => () => undefined)).toEqual(replay.malformed)
    expect(() => replay.recordings).toThrow(RecordingsFormatError)
  })

  it('refuses a file with a syntax error deep in it at load, naming its position', () => {
    let at = 0
    const recordings = harFile(10_000, (text) => {
      at = text.indexOf('"status":200', text.indexOf('/users/u9000/follow'))
      return `${text.slice(0, at)}"status":2OO${text.slice(at + '"status":200'.length)}`
    })
    const position = at + '"status":2'.length
    expect(() => createReplay({ recordings })).toThrow(RecordingsFormatError)
    expect(() => createReplay({ recordings })).toThrow(
      new RegExp(
        `^recordings/staging\\.har: is not valid JSON \\([^\\n]+ at position ${position} \\(line 1 column ${position + 1}\\)\\)$`,
      ),
    )
  })

  it('refuses a file cut short at load, naming it', () => {
    const recordings = harFile(100, (text) => text.slice(0, text.length / 2))
    expect(() => createReplay({ recordings })).toThrow(
      /^recordings\/staging\.har: is not valid JSON \(/,
    )
  })

  it('reports an entry whose HAR shape is wrong, by number, on first use', async () => {
    const recordings = harFile(3, (text) =>
      text
        .replace('"headers":[{"name":"content-type"', '"headers":{"x":[{"name":"content-type"')
        .replace(
          '"value":"application/json"}],"content"',
          '"value":"application/json"}]},"content"',
        ),
    )
    const replay = createReplay({ recordings })
    expect(await replay.checkAll(async () => () => undefined)).toEqual([
      'recordings/staging.har: not a HAR 1.2 document: log.entries.0.response.headers: expected an array',
    ])
  })
})
