/**
 * @module
 * The zod every schema of the sandbox is written with: `zod/mini`, whose functions a bundler
 * drops when unused, where `zod`'s methods all stay in a browser bundle (`zod` is about 25 kB
 * gzipped there, `zod/mini` about 9). With zod's English messages, which `zod/mini` leaves out,
 * so that a refusal reads the same whichever runtime gives it.
 */
import { en } from 'zod/locales'
import { z } from 'zod/mini'

// Set where a schema is written: the package declares no side effects, so a bundler keeps
// this module, and the call, only because its schemas are used.
z.config(en())

/** A string of at least one character: what most fields of a record or a request need. */
export const nonEmpty = () => z.string().check(z.minLength(1))

export { z }
