/**
 * @module
 * The zod every schema is written with: `zod/mini` (about 9 kB gzipped in a browser bundle,
 * `zod` 25), with zod's English messages, so a refusal reads the same in every runtime.
 */
import { en } from 'zod/locales'
import { z } from 'zod/mini'

// Set where a schema is written: the package declares no side effects, so a bundler keeps
// this module, and the call, only because its schemas are used.
z.config(en())

/** A string of at least one character: what most fields of a record or a request need. */
export const nonEmpty = () => z.string().check(z.minLength(1))

export { z }
