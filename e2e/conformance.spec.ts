/**
 * The conformance suite (`contract/conformance/`) in the browser runtime: the example page,
 * opened with `?conformance`, plays every case against the sandbox worker, in the page (the
 * cases hold zod schemas, so they cannot be sent there). Every case must pass, and the
 * browser must answer each one exactly as msw's `setupServer` does in Node, computed here
 * in the test process as `contract/conformance.test.ts` does.
 */
import { expect, test } from '@playwright/test'
import {
  type CaseOutcome,
  conformanceCases,
  createConformanceRunner,
  deepEqual,
} from '../contract/conformance/index.ts'
import { setupSandboxServer } from '../mocks/runtimes/node/index.ts'

const MSW_ORIGIN = 'http://conformance.sandbox.test'

/** Every case through msw `setupServer` in this process, listening only while they run. */
async function runInNode(): Promise<CaseOutcome[]> {
  const { server } = setupSandboxServer({ baseUrl: MSW_ORIGIN })
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const runner = createConformanceRunner({ baseUrl: MSW_ORIGIN })
    const outcomes: CaseOutcome[] = []
    for (const testCase of conformanceCases) outcomes.push(await runner.run(testCase))
    return outcomes
  } finally {
    server.close()
  }
}

test('the browser worker passes every conformance case and answers as msw in Node does', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))

  const expectedNames = conformanceCases.map((testCase) => testCase.name)
  const nodeOutcomes = await runInNode()

  await page.goto('/?conformance')
  await page
    .waitForFunction(() => window.__conformance !== undefined, undefined, { timeout: 30_000 })
    .catch((error: unknown) => {
      throw new Error(
        `Failed to load the conformance suite in the page${pageErrors.length > 0 ? `: ${pageErrors.join('; ')}` : ''}`,
        { cause: error },
      )
    })

  const names = await page.evaluate(() => window.__conformance!.names)
  expect(expectedNames.length).toBeGreaterThan(100)
  expect(new Set(expectedNames).size, 'case names are unique').toBe(expectedNames.length)
  expect(names, 'the page holds the whole case list, in order').toEqual(expectedNames)

  const browserOutcomes = await page.evaluate(() => window.__conformance!.run())
  expect(
    browserOutcomes.map((outcome) => outcome.name),
    'the page ran every case',
  ).toEqual(expectedNames)
  expect(nodeOutcomes.map((outcome) => outcome.name)).toEqual(expectedNames)

  const failing = (outcomes: CaseOutcome[]) =>
    outcomes
      .filter((outcome) => outcome.failures.length > 0)
      .map((outcome) => ({ name: outcome.name, failures: outcome.failures }))
  expect.soft(failing(browserOutcomes), 'cases failing in the browser worker').toEqual([])
  expect.soft(failing(nodeOutcomes), 'cases failing in msw setupServer (Node)').toEqual([])

  const node = new Map(nodeOutcomes.map((outcome) => [outcome.name, outcome]))
  const mismatches = browserOutcomes.flatMap((outcome) => {
    const other = node.get(outcome.name)
    const browser = { status: outcome.status, body: outcome.body }
    const inNode = { status: other?.status, body: other?.body }
    return deepEqual(browser, inNode) ? [] : [{ name: outcome.name, browser, node: inNode }]
  })
  for (const mismatch of mismatches) {
    expect
      .soft(mismatch.browser, `browser worker vs msw in Node: ${mismatch.name}`)
      .toEqual(mismatch.node)
  }
  expect(
    mismatches.map((mismatch) => mismatch.name),
    'cases answered differently',
  ).toEqual([])
  expect(pageErrors).toEqual([])
})
