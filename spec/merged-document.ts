/**
 * @module
 * The merged contract as a module, so that bundlers (the library build, the CLI bundle)
 * put it in a chunk of its own that loads on first use (`server/app.ts`, the check of
 * recorded answers).
 */
import document from './generated/openapi.json' with { type: 'json' }

export default document
