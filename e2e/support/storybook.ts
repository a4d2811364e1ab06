/** Where the Playwright config serves the built Storybook (its workers inherit the port). */
export const STORYBOOK_URL = `http://localhost:${process.env.SANDBOX_E2E_STORYBOOK_PORT}`

/**
 * How long a story opened through Storybook's manager (`/?path=`) may take to show its first
 * answer: the manager loads, then its preview frame, then the worker.
 */
export const MANAGER_LOAD_MS = 30_000
