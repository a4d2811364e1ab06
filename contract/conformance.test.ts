import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupSandboxServer } from '../mocks/runtimes/node/index.ts'
import { startServer } from '../server/start-server.ts'
import {
  type CaseOutcome,
  type ConformanceTarget,
  conformanceCases,
  createConformanceRunner,
} from './conformance/index.ts'

/** A runtime of the sandbox, started for this file and stopped after it. */
interface Runtime {
  name: string
  start(): Promise<{ target: ConformanceTarget; stop(): Promise<void> }>
}

const MSW_ORIGIN = 'http://conformance.sandbox.test'

const runtimes: Runtime[] = [
  {
    name: 'msw setupServer (Node)',
    async start() {
      const { server } = setupSandboxServer({ baseUrl: MSW_ORIGIN })
      server.listen({ onUnhandledRequest: 'error' })
      return { target: { baseUrl: MSW_ORIGIN }, stop: async () => server.close() }
    },
  },
  {
    name: 'standalone server (HTTP)',
    async start() {
      const running = await startServer({ port: 0, quiet: true })
      return { target: { baseUrl: running.url }, stop: () => running.close() }
    },
  },
]

const outcomes = new Map<string, Map<string, CaseOutcome>>()

describe.each(runtimes)('$name', (runtime) => {
  let runner: ReturnType<typeof createConformanceRunner>
  let stop: () => Promise<void> = async () => {}
  const results = new Map<string, CaseOutcome>()
  outcomes.set(runtime.name, results)

  beforeAll(async () => {
    const started = await runtime.start()
    stop = started.stop
    runner = createConformanceRunner(started.target)
  })
  afterAll(() => stop())

  it.each(conformanceCases.map((testCase) => ({ ...testCase, title: testCase.name })))(
    '$title',
    async (testCase) => {
      const outcome = await runner.run(testCase)
      results.set(testCase.name, outcome)
      expect(outcome.failures).toEqual([])
    },
  )
})

describe('every runtime', () => {
  it.each(conformanceCases.map((testCase) => ({ title: testCase.name })))(
    'answers the same: $title',
    ({ title }) => {
      const answers = runtimes.map((runtime) => {
        const outcome = outcomes.get(runtime.name)?.get(title)
        return { runtime: runtime.name, status: outcome?.status, body: outcome?.body }
      })
      for (const answer of answers.slice(1)) {
        expect({ ...answer, runtime: answers[0]!.runtime }).toEqual(answers[0])
      }
    },
  )
})
