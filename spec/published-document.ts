/**
 * @module
 * The published contract as a module (`spec/generated/published.json`, written by
 * `npm run generate` from `platform-api.openapi.yaml`): what `platform-sandbox propose
 * --document` overlays with the operations of your own. Loaded by that command alone.
 */
import document from './generated/published.json' with { type: 'json' }

export default document
