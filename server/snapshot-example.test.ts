import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createStorybookSandbox } from '../mocks/runtimes/storybook/index.ts'
import { startTestServer } from '../test-support/server/test-server.ts'

const EXAMPLE = 'examples/snapshots/guest-followed.json'
const example = JSON.parse(
  readFileSync(new URL(`../${EXAMPLE}`, import.meta.url), 'utf8'),
) as Record<string, unknown>

describe(`the exported snapshot ${EXAMPLE}`, () => {
  it('is what the server exports after the host follows the guest', async () => {
    const server = await startTestServer({ now: () => new Date('2026-06-01T09:00:00.000Z') })
    try {
      const follow = await server.request('/users/usr_guest/follow', {
        as: 'host',
        body: {},
        session: 'storybook',
      })
      expect(follow.status).toBe(201)
      const saved = await server.request('/__sandbox/snapshots', {
        body: { name: 'guest-followed' },
        session: 'storybook',
      })
      expect(saved.status).toBe(201)
      const exported = await server.request('/__sandbox/snapshots/guest-followed')
      expect(exported.body).toEqual(example)
    } finally {
      await server.close()
    }
  })

  it('is a scenario a story names: the Storybook loader resets to it', async () => {
    const { sandbox, loader } = createStorybookSandbox({
      scenarios: [{ file: example, source: EXAMPLE }],
    })
    expect((await sandbox.store()).notifications.get('ntf_n0001')).toBeUndefined()

    const { sandbox: story } = await loader({
      parameters: { sandbox: { scenario: 'guest-followed', persona: 'guest' } },
    })
    expect(story.persona?.key).toBe('guest')
    expect(story.accessToken).toEqual(expect.any(String))
    const store = await sandbox.store()
    expect(store.snapshot.scenario).toBe('guest-followed')
    expect(store.notifications.get('ntf_n0001')).toMatchObject({
      userId: 'usr_guest',
      kind: 'user.followed',
    })
    expect(store.follows.all()).toContainEqual(
      expect.objectContaining({ followerId: 'usr_host', followeeId: 'usr_guest' }),
    )
  })
})
