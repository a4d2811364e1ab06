/**
 * The account panel against the sandbox. Each story names its scenario and
 * persona in `parameters.sandbox` and starts from fresh state.
 */
import type { Meta, StoryObj } from '@storybook/html-vite'
import type { StorySandbox, StorySandboxParameters } from '../../mocks/runtimes/storybook/index.ts'
import { createAccountPanel } from '../app/account-panel.ts'
import { createApi } from '../app/api.ts'

const meta: Meta = {
  title: 'Account/AccountPanel',
  render: (_args, { loaded }) => {
    const { accessToken } = loaded.sandbox as StorySandbox
    if (!accessToken) return '<p>Name a persona in parameters.sandbox to sign in.</p>'
    return createAccountPanel({ api: createApi(), accessToken }).element
  },
  parameters: { sandbox: { persona: 'host' } satisfies StorySandboxParameters },
}

export default meta

type Story = StoryObj

/** Fully enabled payment account and a few notifications. */
export const Host: Story = {}

/** Disabled account with requirements past due. */
export const RestrictedHost: Story = {
  parameters: { sandbox: { persona: 'host-restricted' } satisfies StorySandboxParameters },
}

/** The `empty` scenario: a guest without a payment account or notifications. */
export const GuestInEmptyScenario: Story = {
  parameters: {
    sandbox: { scenario: 'empty', persona: 'guest' } satisfies StorySandboxParameters,
  },
}

/** The README's example scenario file: a host with a new venue and no bookings. */
export const HostWithoutBookings: Story = {
  parameters: {
    sandbox: { scenario: 'host-no-bookings', persona: 'host' } satisfies StorySandboxParameters,
  },
}

/**
 * A snapshot saved on a running server and exported (`GET /__sandbox/snapshots/guest-followed`):
 * the host has just followed the guest. The preview loads the file; the story names it.
 */
export const GuestFollowedByHost: Story = {
  parameters: {
    sandbox: { scenario: 'guest-followed', persona: 'guest' } satisfies StorySandboxParameters,
  },
}

/** The sandbox devtools over the story (`sandbox.devtools`), folded to a button in a corner. */
export const HostWithDevtools: Story = {
  parameters: {
    sandbox: { persona: 'host', devtools: true } satisfies StorySandboxParameters,
  },
}

/**
 * The host, calling the API at `http://localhost:4010` as a generated client does: only the
 * worker answers there, so a request that escapes it fails ("Failed to fetch").
 */
export const HostAtTheApiAddress: Story = {
  render: (_args, { loaded }) => {
    const { accessToken } = loaded.sandbox as StorySandbox
    const api = createApi('http://localhost:4010')
    return createAccountPanel({ api, accessToken: accessToken ?? '' }).element
  },
}
