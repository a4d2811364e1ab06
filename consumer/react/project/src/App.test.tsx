import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { operationKit } from 'platform-sandbox'
import hostScreens from 'platform-sandbox/examples/operations'
import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { App } from './App.tsx'

// The operations main.tsx gives the worker: `GET /host/bookings` lists the host's bookings.
const { server, sandbox, reset } = setupSandboxServer({ operations: hostScreens(operationKit) })

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(async () => {
  cleanup()
  await reset() // the state and the kept cookies, back to the start
})
afterAll(() => server.close())

function renderApp() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>,
  )
}

it('signs the host in with the refresh cookie, lists the pending bookings and declines one', async () => {
  renderApp()
  fireEvent.click(await screen.findByRole('button', { name: 'Sign in as host' }))
  expect(await screen.findByText('Payouts enabled')).toBeTruthy()
  // The default scenario at its default seed: the host has 10 pending bookings.
  expect(await screen.findAllByRole('listitem')).toHaveLength(10)

  fireEvent.click(screen.getByRole('button', { name: 'Decline booking bkg_pending' }))
  expect(await screen.findByText('Booking bkg_pending declined')).toBeTruthy()
  // The list was read again before the mutation settled: the declined row is gone.
  expect(screen.getAllByRole('listitem')).toHaveLength(9)
  expect(screen.queryByRole('button', { name: 'Decline booking bkg_pending' })).toBeNull()
  expect(screen.getByRole('button', { name: 'Decline booking bkg_pending_2' })).toBeTruthy()

  const { bookings } = await sandbox.store()
  expect(bookings.get('bkg_pending')?.status).toBe('declined')
  expect(bookings.get('bkg_pending_2')?.status).toBe('pending')
  expect(sandbox.journal.list().map((entry) => [entry.operationId, entry.status])).toEqual([
    ['refreshToken', 401], // no refresh_token cookie yet: signed out
    ['completeIdpSignIn', 201],
    ['refreshToken', 200],
    ['getAccountStatus', 200],
    ['listHostBookings', 200],
    ['declineBooking', 201],
    ['listHostBookings', 200], // read again: the declined booking is no longer pending
  ])
})

it('finds the session again on the next visit: the cookie is still there', async () => {
  renderApp()
  fireEvent.click(await screen.findByRole('button', { name: 'Sign in as host' }))
  expect(await screen.findByText('Payouts enabled')).toBeTruthy()
  cleanup()

  renderApp()
  expect(await screen.findByText('Payouts enabled')).toBeTruthy()
  expect(screen.queryByRole('button', { name: 'Sign in as host' })).toBeNull()
})

it('starts every test signed out, from the scenario', async () => {
  renderApp()
  expect(await screen.findByRole('button', { name: 'Sign in as host' })).toBeTruthy()
  const { bookings } = await sandbox.store()
  expect(bookings.get('bkg_pending')?.status).toBe('pending')
})
