/**
 * @module
 * The merged contract served at `GET /__sandbox/openapi.json`, built from `spec/`
 * on first request (openapi-format is only loaded then) and kept.
 */
import { notFound } from '../mocks/core/errors.ts'

let merged: Promise<unknown> | undefined

async function build(): Promise<unknown> {
  let module: typeof import('../spec/build-document.ts')
  try {
    module = await import('../spec/build-document.ts')
  } catch (error) {
    console.error('[sandbox] failed to load spec/build-document.ts:', error)
    throw notFound(
      'The merged OpenAPI document is not available: spec/build-document.ts failed to load',
    )
  }
  return module.buildMergedDocument()
}

/** The merged OpenAPI document; a failed build is retried on the next call. */
export function loadMergedDocument(): Promise<unknown> {
  merged ??= build()
  merged.catch(() => {
    merged = undefined
  })
  return merged
}
