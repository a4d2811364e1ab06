import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { scenarios as builtIns, DEFAULT_SEED } from '../../fixtures/scenarios.ts'
import { createSandbox } from '../sandbox.ts'
import { compileScenarios, ScenarioError } from './compile-scenarios.ts'
import { readScenarioFiles } from './load-files.ts'
import { defineScenario } from './scenario-file.ts'

const EXAMPLE = 'examples/scenarios/host-no-bookings.yaml'

const booking = (id: string, status: string) => ({
  id,
  listingId: 'ven_host_loft',
  guestId: 'usr_guest',
  hostId: 'usr_host',
  status,
  startsAt: '2026-06-12T17:00:00.000Z',
  endsAt: '2026-06-12T21:00:00.000Z',
  amount: 480,
  currency: 'EUR',
  declineReason: null,
})

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run()
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems
    throw error
  }
  throw new Error('expected a ScenarioError')
}

const compile = (file: unknown, source = 'scenarios/test.yaml') =>
  compileScenarios([{ file, source }], builtIns, { seed: DEFAULT_SEED })

describe('scenario files', () => {
  it('loads the README example (YAML): adds, changes and removes on top of empty', async () => {
    const sources = await readScenarioFiles([EXAMPLE])
    const sandbox = createSandbox({ scenario: 'host-no-bookings', scenarios: sources })
    const store = await sandbox.store()
    expect(store.venues.get('ven_canal_loft')).toMatchObject({
      ownerId: 'usr_host',
      city: 'Amsterdam',
    })
    expect(store.bookings.count()).toBe(0)
    expect(store.users.get('usr_host')?.displayName).toBe('Hannah de Vries')
    expect(store.ambassadorApplications.has('applicant@sandbox.test')).toBe(false)
    expect(store.notifications.get('ntf_canal_loft_live')?.title).toBe('Canal Loft is live')
    expect(sandbox.scenarios['host-no-bookings']?.description).toMatch(/no bookings/)
  })

  it('loads the same scenario from JSON, and every file of a folder', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenarios-'))
    await writeFile(
      path.join(folder, 'two-pending.json'),
      JSON.stringify({
        name: 'two-pending',
        description: 'Two extra pending bookings',
        extends: 'host-no-bookings',
        add: {
          bookings: [
            { ...booking('bkg_a', 'pending'), listingId: 'ven_canal_loft' },
            { ...booking('bkg_b', 'pending'), listingId: 'ven_canal_loft' },
          ],
        },
      }),
    )
    await writeFile(path.join(folder, 'notes.txt'), 'not a scenario')
    const sources = await readScenarioFiles([folder, EXAMPLE])
    expect(sources.map((source) => path.basename(source.source))).toEqual([
      'two-pending.json',
      'host-no-bookings.yaml',
    ])
    const sandbox = createSandbox({ scenarios: sources })
    await sandbox.reset({ scenario: 'two-pending' })
    const store = await sandbox.store()
    expect(store.bookings.all().map((b) => b.id)).toEqual(['bkg_a', 'bkg_b'])
    expect(store.venues.has('ven_canal_loft')).toBe(true)
  })

  it('names the file, the record and the field of a wrong value', () => {
    const file = {
      name: 'host-no-bookings',
      extends: 'default',
      add: {
        bookings: [
          booking('bkg_x0', 'pending'),
          booking('bkg_x1', 'paid'),
          booking('bkg_x2', 'paid'),
          booking('bkg_x3', 'cancelled'),
        ],
      },
    }
    expect(problemsOf(() => compile(file, 'scenarios/host-no-bookings.yaml'))).toEqual([
      'scenarios/host-no-bookings.yaml: bookings[3].status: expected one of pending, accepted, declined, paid, refunded, got "cancelled"',
    ])
  })

  it('reports every problem of every file, not only the first', () => {
    const bad = {
      name: 'bad',
      extends: 'default',
      add: {
        bookings: [
          { ...booking('bkg_y', 'pending'), amount: -5, stauts: 'x', hostId: 'usr_nobody' },
        ],
      },
      change: {
        bookings: [
          { id: 'bkg_missing', status: 'paid' },
          { id: 'bkg_pending', startsAt: 'tomorrow' },
        ],
      },
      remove: { venues: ['ven_nowhere'] },
    }
    const problems = problemsOf(() =>
      compileScenarios(
        [
          { file: bad, source: 'a.yaml' },
          { file: { name: 'other', extends: 'defualt' }, source: 'b.json' },
          { file: { name: 'Bad name!', ad: {} }, source: 'c.yaml' },
        ],
        builtIns,
        { seed: DEFAULT_SEED },
      ),
    )
    expect(problems).toEqual([
      'c.yaml: name: must be 1 to 64 letters, digits, ".", "_" or "-", got "Bad name!"',
      'c.yaml: ad: unknown field, did you mean "add"?',
      'a.yaml: bookings[0].amount: expected at least 0, got -5',
      'a.yaml: bookings[0].stauts: unknown field, did you mean "status"?',
      'a.yaml: change.bookings[0].id: no record "bkg_missing" to change',
      'a.yaml: bookings[bkg_pending].startsAt: expected an ISO 8601 date-time such as 2026-06-01T09:00:00.000Z, got "tomorrow"',
      'a.yaml: remove.venues[0]: no record "ven_nowhere" to remove',
      'b.json: extends: unknown scenario "defualt" (known: default, empty, large, bad)',
    ])
  })

  it('treats dangling references as errors, in added and in existing records', () => {
    const problems = problemsOf(() =>
      compile({
        name: 'dangling',
        extends: 'empty',
        add: { bookings: [{ ...booking('bkg_z', 'pending'), hostId: 'usr_nobody' }] },
        remove: { users: ['usr_applicant'] },
      }),
    )
    expect(problems).toEqual([
      'scenarios/test.yaml: bookings[0].listingId: no venue "ven_host_loft"',
      'scenarios/test.yaml: bookings[0].hostId: no user "usr_nobody"',
    ])
    const removed = problemsOf(() =>
      compile({ name: 'no-host', extends: 'empty', remove: { users: ['usr_host'] } }),
    )
    expect(removed).toEqual([
      'scenarios/test.yaml: paymentAccounts[usr_host].userId: no user "usr_host"',
    ])
  })

  it('refuses duplicate keys, unknown collections and cycles of extends', () => {
    expect(
      problemsOf(() =>
        compile({
          name: 'dup',
          extends: 'empty',
          add: { users: [{ publicId: 'usr_host' }], bokings: [] },
        }),
      ),
    ).toEqual([
      'scenarios/test.yaml: add.bokings: unknown collection (collections: users, paymentAccounts, ambassadorApplications, venues, reviews, follows, bookings, contracts, checkoutSessions, notifications, outbox, refunds)',
    ])
    const cycle = problemsOf(() =>
      compileScenarios(
        [
          { file: { name: 'a', extends: 'b' }, source: 'a.yaml' },
          { file: { name: 'b', extends: 'a' }, source: 'b.yaml' },
        ],
        builtIns,
        { seed: 1 },
      ),
    )
    expect(cycle).toEqual([
      'b.yaml: extends: "a" leads back to "b" (a -> b -> a)',
      'a.yaml: extends: scenario "b" has problems of its own',
    ])
    expect(problemsOf(() => compile({ name: 'default' }))).toEqual([
      'scenarios/test.yaml: name: "default" is already a scenario; choose another name',
    ])
  })

  it('names YAML syntax errors by line', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenarios-'))
    const file = path.join(folder, 'broken.yaml')
    await writeFile(file, 'name: broken\nadd:\n  users: [\n')
    await expect(readScenarioFiles([file])).rejects.toThrow(/broken\.yaml: line \d+, column \d+/)
    await expect(readScenarioFiles([path.join(folder, 'missing.yaml')])).rejects.toThrow(
      /missing\.yaml: cannot read \(ENOENT\)/,
    )
  })

  it('takes typed scenario objects from defineScenario, and never half-applies', async () => {
    const scenario = defineScenario({
      name: 'pending-for-host',
      description: 'One more pending booking for the host',
      extends: 'default',
      seed: 7,
      add: { bookings: [{ ...booking('bkg_extra', 'pending'), status: 'pending' }] },
    })
    const sandbox = createSandbox({ scenarios: [scenario] })
    await sandbox.reset({ scenario: 'pending-for-host', session: 's1' })
    expect((await sandbox.store('s1')).bookings.get('bkg_extra')?.status).toBe('pending')
    const generated = builtIns.default!.build(7).bookings.at(-1)!
    expect((await sandbox.store('s1')).bookings.get(generated.id)).toEqual(generated)

    const before = Object.keys(sandbox.scenarios)
    expect(() =>
      sandbox.addScenarios([
        { name: 'fine', extends: 'empty' },
        {
          name: 'broken',
          extends: 'empty',
          change: { users: [{ publicId: 'usr_host', roles: ['king'] as never }] },
        },
      ]),
    ).toThrow(ScenarioError)
    expect(Object.keys(sandbox.scenarios)).toEqual(before)
  })

  it('answers a reset that cannot build the file at another seed with a 400, and keeps the state', async () => {
    const generated = builtIns.default!.build(DEFAULT_SEED).bookings.at(-1)!
    const sandbox = createSandbox({
      scenarios: [
        {
          name: 'one-paid',
          extends: 'default',
          change: { bookings: [{ id: generated.id, status: 'paid' }] },
        },
      ],
    })
    await sandbox.reset({ scenario: 'one-paid', session: 's' })
    expect((await sandbox.store('s')).bookings.get(generated.id)?.status).toBe('paid')
    const refused = await sandbox
      .reset({ scenario: 'one-paid', seed: 5, session: 's' })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({
      status: 400,
      details: [
        `scenario "one-paid": change.bookings[0].id: no record "${generated.id}" to change`,
      ],
    })
    expect((await sandbox.store('s')).bookings.get(generated.id)?.status).toBe('paid')
  })

  it('lets TypeScript catch a misspelt field or a wrong value in defineScenario', () => {
    const venue = {
      id: 'ven_t',
      name: 'T',
      city: 'Porto',
      ownerId: null,
      contactEmail: 't@example.com',
    } as const
    defineScenario({
      name: 'typed',
      // @ts-expect-error: "claimd" is not a claim status
      add: { venues: [{ ...venue, claimStatus: 'claimd' }] },
    })
    defineScenario({
      name: 'typed',
      // @ts-expect-error: "bokings" is not a collection
      remove: { bokings: ['bkg_pending'] },
    })
    expect(
      defineScenario({ name: 'typed', add: { venues: [{ ...venue, claimStatus: 'unclaimed' }] } })
        .add?.venues,
    ).toHaveLength(1)
  })

  it('keeps the example file in the repository as the scenarios guide shows it', async () => {
    const readme = await readFile('docs/qa/scenarios.md', 'utf8')
    const example = await readFile(EXAMPLE, 'utf8')
    expect(readme).toContain(example.trim())
  })
})
