/**
 * @module
 * A recordings file from its bytes, for the Node entries: a HAR file is indexed quickly
 * (`har-index.ts`), or by reading all of its structure (`har-scan.ts`), and each entry
 * is parsed on first use. Browser bundles, which get parsed documents, leave this out.
 */
import { Buffer } from 'node:buffer'
import { NOT_ASCII, type QuickHarIndex, quickIndexHar } from './har-index.ts'
import { scanHar } from './har-scan.ts'
import {
  checkedEntry,
  fromDocument,
  harRecording,
  jsonErrorMessage,
  type Recording,
  type RecordingSource,
  type RecordingsFile,
  RecordingsFormatError,
  StaleRecordingIndex,
} from './recordings.ts'
import { routeHash } from './route-hash.ts'

/** The recordings file named `name` (a path, in errors) with these bytes. */
export function recordingsFile(name: string, bytes: Uint8Array): RecordingsFile {
  return { name, sources: (exact) => fromBytes(bytes, `${name}: `, exact) }
}

const decoder = new TextDecoder()

/**
 * The bytes as text of one character per byte (latin1, several times quicker to make than
 * UTF-8 text), and how to read a range of it as the UTF-8 it is: as is when it is ASCII.
 */
function oneCharPerByte(bytes: Uint8Array): [string, (start: number, end: number) => string] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  return [
    text,
    (start, end) => {
      const part = text.slice(start, end)
      return NOT_ASCII.test(part) ? decoder.decode(bytes.subarray(start, end)) : part
    },
  ]
}

/**
 * The entries of a HAR file found in its bytes, each parsed and checked on first `load`.
 * Unless `exact`, they are found by the quick index, whose `load` throws a
 * `StaleRecordingIndex` when it does not hold; `exact` reads all the file's structure.
 */
function fromBytes(bytes: Uint8Array, where: string, exact: boolean): RecordingSource[] {
  if (!exact) {
    const quick = quickIndexHar(...oneCharPerByte(bytes))
    if (quick) return fromQuickIndex(quick)
  }
  const entries = scanHar(bytes)
  if (!entries) {
    // Not a HAR the scan can index: parsed in full, which says what is wrong with it.
    let document: unknown
    try {
      document = JSON.parse(decoder.decode(bytes))
    } catch (error) {
      throw new RecordingsFormatError(`${where}is not valid JSON (${jsonErrorMessage(error)})`)
    }
    return fromDocument(document, where)
  }
  const read = (index: number) => {
    const { start, end } = entries[index]!
    return parseEntry(bytes.subarray(start, end), index, where)
  }
  return lazySources(
    entries.map(({ route }) => route),
    read,
  )
}

/**
 * Entry `index` of a file, read with `read` once, on its first `load`. One object per
 * entry and one reader per file, without a closure per entry: a large recording makes tens
 * of thousands of them at load.
 */
class LazySource implements RecordingSource {
  readonly route: number
  readonly #index: number
  readonly #read: (index: number) => Recording
  #recording: Recording | undefined
  constructor(route: number, index: number, read: (index: number) => Recording) {
    this.route = route
    this.#index = index
    this.#read = read
  }
  load(): Recording {
    this.#recording ??= this.#read(this.#index)
    return this.#recording
  }
}

/** The sources of a file's entries, by their routes in file order. */
function lazySources(
  routes: readonly number[],
  read: (index: number) => Recording,
): RecordingSource[] {
  const sources: RecordingSource[] = new Array(routes.length)
  for (let index = 0; index < routes.length; index++) {
    sources[index] = new LazySource(routes[index]!, index, read)
  }
  return sources
}

function fromQuickIndex(quick: QuickHarIndex): RecordingSource[] {
  return lazySources(quick.routes, (index) => quickEntry(quick, index))
}

/** Entry `index` of the quick index, which must parse and hold the request it indexed. */
function quickEntry(quick: QuickHarIndex, index: number): Recording {
  let checked: ReturnType<typeof checkedEntry>
  try {
    checked = checkedEntry(JSON.parse(quick.entryText(index)), index, '')
  } catch (error) {
    if (error instanceof StaleRecordingIndex) throw error
    // A syntax error or a malformed entry: the full read names it, or finds the index wrong.
    throw new StaleRecordingIndex(`#${index}: ${(error as Error).message}`)
  }
  if (routeHash(checked.method, checked.url.path) !== quick.routes[index]) {
    throw new StaleRecordingIndex(`#${index}: another request`)
  }
  return harRecording(checked.entry, checked.method, checked.url, index)
}

function parseEntry(bytes: Uint8Array, index: number, where: string): Recording {
  let entry: unknown
  try {
    entry = JSON.parse(decoder.decode(bytes))
  } catch (error) {
    throw new RecordingsFormatError(
      `${where}log.entries.${index} is not valid JSON (${jsonErrorMessage(error)})`,
    )
  }
  const checked = checkedEntry(entry, index, where)
  return harRecording(checked.entry, checked.method, checked.url, index)
}
