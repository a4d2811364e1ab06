/**
 * @module
 * The merged contract served at `GET /__sandbox/openapi.json`: the generated
 * `spec/generated/openapi.json` (see `npm run generate`), loaded on first request
 * so that it stays off the start-up path, and kept.
 */
let merged: Promise<unknown> | undefined

/** The merged OpenAPI document. */
export function loadMergedDocument(): Promise<unknown> {
  merged ??= import('../spec/merged-document.ts').then((module) => module.default)
  return merged
}
