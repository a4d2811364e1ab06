/**
 * The dashboard's words, on the page: each panel says in a line what its terms mean, and a
 * refused request's journal row says why it was refused, not only its status.
 */
import { expect, test } from '@playwright/test'
import { anchors } from '../fixtures/anchors.ts'
import { personas } from '../fixtures/personas.ts'
import { SESSION_HEADER } from '../mocks/sandbox-client/sandbox-client.ts'
import { type RunningServer, startServer } from '../server/start-server.ts'

let server: RunningServer
const host = personas.find((persona) => persona.key === 'host')!

test.beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true })
})
test.afterAll(async () => {
  await server.close()
})

test("says what each panel's words mean, and a refusal's message in its journal row", async ({
  page,
}) => {
  const session = 'dash-words'
  await page.goto(`${server.url}/__sandbox/?session=${session}`)
  await expect(page.getByRole('heading', { name: /Requests live/ })).toBeVisible()
  const help = (panel: string | RegExp) =>
    page.getByRole('region', { name: panel }).locator('p.help')
  await expect(help('Session')).toContainText('A session is one caller')
  await expect(help('Session')).toContainText('a snapshot (a session')
  await expect(help('Fault rules')).toContainText('A fault rule makes')
  await expect(help(/^Requests/)).toContainText('Each row is one request')
  await expect(page.locator('header')).toContainText('docs/qa/dashboard.md')

  const headers = { 'content-type': 'application/json', [SESSION_HEADER]: session }
  const refreshed = await fetch(`${server.url}/auth/refresh`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ refreshToken: host.refreshToken }),
  })
  const { accessToken } = (await refreshed.json()) as { accessToken: string }
  const decline = () =>
    fetch(`${server.url}/bookings/${anchors.bookings.pending}/decline`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${accessToken}` },
      body: '{}',
    })
  expect((await decline()).status).toBe(201)
  const refused = await decline()
  expect(refused.status).toBe(409)
  const { message } = (await refused.json()) as { message: string }
  expect(message).toBe(
    `Booking "${anchors.bookings.pending}" is declined, only a pending booking can be declined`,
  )
  const row = page.getByTestId('journal').getByRole('row').nth(1)
  await expect(row.getByRole('cell').nth(1)).toHaveText(
    `POST /bookings/${anchors.bookings.pending}/decline${message}`,
  )
  await expect(row.getByRole('cell').nth(2)).toHaveText('409')
})
