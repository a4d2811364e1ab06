/**
 * @module
 * The zod every schema of the sandbox is written with: `zod/mini`, whose functions a bundler
 * drops when unused, where `zod`'s methods all stay in a browser bundle (`zod` is about 25 kB
 * gzipped there). With zod's English messages, which `zod/mini` leaves out, so that a refusal
 * reads the same whichever runtime gives it (the server also loads `zod`, which sets them).
 */
import { en } from 'zod/locales'
import { z } from 'zod/mini'

z.config(en())

export { z }
