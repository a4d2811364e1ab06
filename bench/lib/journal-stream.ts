/**
 * @module
 * What the dashboard's live journal costs the server: throughput of
 * `GET /payprov/account-status` with a subscriber on `GET /__sandbox/events` against the
 * same load with none, in alternating rounds on one sandbox process, and how many of the
 * journal entries the stream delivered.
 */
import { get, type IncomingMessage } from 'node:http'
import { type LoadResult, type LoadSettings, type LoadTarget, measureLoad } from './load.ts'

export interface JournalStreamFigures {
  without: LoadResult
  with: LoadResult
  /**
   * Journal entries the subscriber received in its best round: the measured requests
   * (`with.requests`) plus the warm-up's, which are journalled and streamed too.
   */
  delivered: number
}

/**
 * The entries of one event's JSON array, counted without parsing it: the subscriber shares
 * a core with the load generator, and parsing thousands of entries a second would slow the
 * load, not the server. Every entry has exactly one `"operationId":` key.
 */
function countEntries(data: string): number {
  return data.split('"operationId":').length - 1
}

/** Counts the entries of every `requests` event the stream sends. */
function subscribe(url: string): Promise<{ count: () => number; close: () => void }> {
  return new Promise((resolve, reject) => {
    let received = 0
    let buffer = ''
    const request = get(`${url}/__sandbox/events?session=default`, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        reject(new Error(`Failed to open the journal stream: ${response.statusCode}`))
        return
      }
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        buffer += chunk
        let end = buffer.indexOf('\n\n')
        while (end !== -1) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '))
          if (data) received += countEntries(data)
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      })
      resolve({ count: () => received, close: () => request.destroy() })
    })
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)))
  })
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

/** Best of `rounds` alternating rounds, without and with a subscriber. */
export async function measureJournalStream(
  url: string,
  target: LoadTarget,
  settings: LoadSettings,
  rounds: number,
): Promise<JournalStreamFigures> {
  let without: LoadResult | undefined
  let best: { result: LoadResult; delivered: number } | undefined
  for (let round = 0; round < rounds; round += 1) {
    const plain = await measureLoad(url, target, settings)
    if (!without || plain.requestsPerSecond > without.requestsPerSecond) without = plain
    const stream = await subscribe(url)
    const before = stream.count()
    const streamed = await measureLoad(url, target, settings)
    await settle()
    const delivered = stream.count() - before
    stream.close()
    if (!best || streamed.requestsPerSecond > best.result.requestsPerSecond) {
      best = { result: streamed, delivered }
    }
  }
  return { without: without!, with: best!.result, delivered: best!.delivered }
}
