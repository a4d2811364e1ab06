/**
 * @module
 * The contract of a state store (`mocks/core/state-store.ts`), run on every implementation by
 * one test file each: `describeStateStore(name, place)`, where `place()` makes an empty place to
 * keep state (a folder, a key prefix) and its `open()` opens a store on it, as a start does.
 */
import { describe, expect, it } from 'vitest'
import type {
  KeptByName,
  LoggedWrite,
  SavedSnapshotRecord,
  StateStore,
} from '../mocks/core/index.ts'

export interface StorePlace {
  open(): StateStore | Promise<StateStore>
}

const write = (session: string, n: number): LoggedWrite => ({
  time: `2026-06-01T10:00:0${n}.000Z`,
  request: {
    method: 'POST',
    url: `/bookings/bkg_${n}/decline`,
    headers: { 'content-type': 'application/json', 'x-sandbox-session': session },
    body: JSON.stringify({ reason: `réponse ${n}` }),
  },
})

const snapshot = (name: string, records: number): SavedSnapshotRecord => ({
  info: {
    name,
    scenario: 'default',
    seed: 7,
    session: 'qa',
    savedAt: '2026-06-01T10:00:00.000Z',
    records,
  },
  idSequence: records,
  changes: { remove: { bookings: [`bkg_${records}`] } },
})

const scenario = (name: string, description: string) => ({ name, description, extends: 'empty' })

/**
 * Until the clock has moved on, so that what comes next is used later than what came before. A
 * file's time comes from the kernel's coarse clock, which may lag the process's by a tick (up to
 * 10 ms), so the wait is well past a tick on both sides of the time returned.
 */
async function later(): Promise<Date> {
  const wait = async () => {
    const start = Date.now()
    while (Date.now() < start + 30) await new Promise((resolve) => setTimeout(resolve, 30))
  }
  await wait()
  const now = new Date()
  await wait()
  return now
}

const values = async <T>(kept: KeptByName<T>) =>
  (await kept.list()).map((entry) => ('value' in entry ? entry.value : entry))

function describeKept<T>(
  part: 'snapshots' | 'scenarios',
  place: () => StorePlace,
  make: (name: string, version: number) => T,
) {
  describe(`${part}`, () => {
    it('saves, lists in name order, replaces one of the same name whole, and deletes', async () => {
      const kept = (await place().open())[part] as KeptByName<T>
      expect(await kept.list()).toEqual([])
      await kept.save('b-second', make('b-second', 1))
      await kept.save('a-first', make('a-first', 1))
      expect(await values(kept)).toEqual([make('a-first', 1), make('b-second', 1)])
      await kept.save('a-first', make('a-first', 2))
      expect(await values(kept)).toEqual([make('a-first', 2), make('b-second', 1)])
      await kept.delete('a-first')
      await kept.delete('never-saved')
      expect(await values(kept)).toEqual([make('b-second', 1)])
      expect(typeof kept.where).toBe('string')
    })

    it('keeps what one opening saved for the next', async () => {
      const shared = place()
      const first = (await shared.open())[part] as KeptByName<T>
      await first.save('kept', make('kept', 1))
      await first.save('deleted', make('deleted', 1))
      await first.delete('deleted')
      const second = (await shared.open())[part] as KeptByName<T>
      expect(await values(second)).toEqual([make('kept', 1)])
    })
  })
}

export function describeStateStore(name: string, place: () => StorePlace): void {
  describe(`the ${name} state store`, () => {
    describe('sessions', () => {
      it('loads the writes appended, in order, each session its own; none for a session without a log', async () => {
        const { sessions } = await place().open()
        expect(await sessions.load('qa')).toBeUndefined()
        await sessions.write('qa', write('qa', 1))
        await sessions.write('other', write('other', 2))
        await sessions.write('qa', write('qa', 3))
        expect(await sessions.load('qa')).toEqual([write('qa', 1), write('qa', 3)])
        expect(await sessions.load('other')).toEqual([write('other', 2)])
      })

      it('replaces the log with the reset, and writes after it follow it', async () => {
        const { sessions } = await place().open()
        await sessions.write('qa', write('qa', 1))
        await sessions.reset('qa', { scenario: 'default', seed: 7, snapshot: 'saved' })
        await sessions.write('qa', write('qa', 2))
        expect(await sessions.load('qa')).toEqual([
          { reset: { scenario: 'default', seed: 7, snapshot: 'saved' } },
          write('qa', 2),
        ])
        await sessions.reset('fresh', { scenario: 'empty', seed: 1 })
        expect(await sessions.load('fresh')).toEqual([{ reset: { scenario: 'empty', seed: 1 } }])
      })

      it('drops a log whole, leaving the others', async () => {
        const { sessions } = await place().open()
        await sessions.write('qa', write('qa', 1))
        await sessions.write('other', write('other', 2))
        await sessions.drop('qa')
        await sessions.drop('never-written')
        expect(await sessions.load('qa')).toBeUndefined()
        expect(await sessions.list()).toEqual(['other'])
      })

      it('lists the sessions it holds, and those not used since a time: a write, a load or a touch uses one', async () => {
        const { sessions } = await place().open()
        for (const session of ['written', 'loaded', 'touched', 'idle']) {
          await sessions.write(session, write(session, 1))
        }
        const between = await later()
        await later()
        await sessions.write('written', write('written', 2))
        await sessions.load('loaded')
        await sessions.touch('touched')
        await sessions.touch('never-written')
        expect((await sessions.list()).sort()).toEqual(['idle', 'loaded', 'touched', 'written'])
        expect(await sessions.list(between)).toEqual(['idle'])
        expect((await sessions.list(await later())).sort()).toEqual([
          'idle',
          'loaded',
          'touched',
          'written',
        ])
      })

      it('keeps the logs for the next opening', async () => {
        const shared = place()
        const first = (await shared.open()).sessions
        await first.reset('qa', { scenario: 'default', seed: 7 })
        await first.write('qa', write('qa', 1))
        await first.write('dropped', write('dropped', 2))
        await first.drop('dropped')
        const second = (await shared.open()).sessions
        expect(await second.list()).toEqual(['qa'])
        expect(await second.load('qa')).toEqual([
          { reset: { scenario: 'default', seed: 7 } },
          write('qa', 1),
        ])
      })
    })

    describeKept('snapshots', place, (name, version) => snapshot(name, version))
    describeKept('scenarios', place, (name, version) => scenario(name, `version ${version}`))
  })
}
