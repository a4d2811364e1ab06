/**
 * @module
 * What the browser entry loads only when asked, in one chunk: a replay made of its options
 * (`replayOf`), and the journal's HAR writer for the first `GET /__sandbox/requests.har`.
 */
export { writeJournalHar } from '../../../recordings/har.ts'
export { replayOf } from '../../../recordings/replay/replay.ts'
