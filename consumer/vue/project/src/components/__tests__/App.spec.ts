import { mount, type VueWrapper } from '@vue/test-utils'
import { operationKit } from 'platform-sandbox'
import hostScreens from 'platform-sandbox/examples/operations'
import { setupSandboxServer } from 'platform-sandbox/node'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import App from '../../App.vue'

// The operations main.ts gives the worker: `GET /host/bookings` lists the host's bookings.
const { server, sandbox, reset } = setupSandboxServer({ operations: hostScreens(operationKit) })

const declineButton = (wrapper: VueWrapper, bookingId: string) =>
  wrapper.findAll('button').find((button) => button.text() === `Decline booking ${bookingId}`)

// msw 2 names the option `onUnhandledRequest` (create-vue's Vitest 4.1 installs msw 2.15);
// msw 3 names it `onUnhandledFrame`. `npm ls msw` says which one you have.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => reset()) // the state and the kept cookies, back to the start
afterAll(() => server.close())

it('signs the host in, lists the pending bookings and declines one', async () => {
  const wrapper = mount(App)
  await vi.waitFor(() => expect(wrapper.find('button').text()).toBe('Sign in as host'))
  await wrapper.find('button').trigger('click')
  await vi.waitFor(() => expect(wrapper.findAll('li')).toHaveLength(10))

  await declineButton(wrapper, 'bkg_pending')?.trigger('click')
  await vi.waitFor(() => expect(wrapper.findAll('li')).toHaveLength(9))
  expect(declineButton(wrapper, 'bkg_pending')).toBeUndefined()
  expect(declineButton(wrapper, 'bkg_pending_2')).toBeDefined()

  const { bookings } = await sandbox.store()
  expect(bookings.get('bkg_pending')?.status).toBe('declined')
  expect(bookings.get('bkg_pending_2')?.status).toBe('pending')
  expect(sandbox.journal.list().map((entry) => [entry.operationId, entry.status])).toEqual([
    ['refreshToken', 401], // no refresh_token cookie yet: signed out
    ['completeIdpSignIn', 201],
    ['refreshToken', 200],
    ['listHostBookings', 200],
    ['declineBooking', 201],
    ['listHostBookings', 200], // read again: the declined booking is no longer pending
  ])
  wrapper.unmount()
})

it('starts every test signed out, from the scenario', async () => {
  const wrapper = mount(App)
  await vi.waitFor(() => expect(wrapper.find('button').text()).toBe('Sign in as host'))
  const { bookings } = await sandbox.store()
  expect(bookings.get('bkg_pending')?.status).toBe('pending')
  wrapper.unmount()
})
