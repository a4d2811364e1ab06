/**
 * @module
 * The merged contract as a module, so that bundlers (the library build, the CLI bundle)
 * put it in a chunk of its own that `openapi.ts` loads on first request.
 */
import document from '../spec/generated/openapi.json' with { type: 'json' }

export default document
