/**
 * @module
 * Reads a request body as text, up to a limit. Past it the body is too large and the rest of
 * the upload is dropped as it arrives (Node drains it), so the connection stays usable.
 */
import type { IncomingMessage } from 'node:http'

export const TOO_LARGE = Symbol('TOO_LARGE')

/** The client went away mid-upload. */
export class BodyAbortedError extends Error {
  constructor() {
    super('Failed to read the request body: the client closed the connection')
    this.name = 'BodyAbortedError'
  }
}

/** The body as UTF-8 text (`''` if none), or `TOO_LARGE` as soon as it is known to be. */
export function readBody(
  request: IncomingMessage,
  limitBytes: number,
): Promise<string | typeof TOO_LARGE> {
  const declared = request.headers['content-length']
  if (declared !== undefined) {
    const length = Number(declared)
    if (length > limitBytes) return Promise.resolve(TOO_LARGE)
    if (length === 0) return Promise.resolve('')
  } else if (request.headers['transfer-encoding'] === undefined) {
    return Promise.resolve('')
  }
  if (request.readableEnded) return Promise.resolve('')

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
      request.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limitBytes) {
        stop()
        chunks.length = 0
        // Keep the stream flowing with no listener: the rest is dropped as it comes.
        request.resume()
        resolve(TOO_LARGE)
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      resolve(
        chunks.length === 1
          ? chunks[0]!.toString('utf8')
          : Buffer.concat(chunks, size).toString('utf8'),
      )
    }
    const onError = (error: Error & { code?: string }) => {
      stop()
      // Node reports a client that went away mid-upload as an `aborted` ECONNRESET.
      reject(error.code === 'ECONNRESET' ? new BodyAbortedError() : error)
    }
    const onClose = () => {
      stop()
      reject(new BodyAbortedError())
    }
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
    request.on('close', onClose)
  })
}
