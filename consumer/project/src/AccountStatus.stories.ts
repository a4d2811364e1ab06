import type { Meta, StoryObj } from '@storybook/html-vite'
import type { StorySandbox } from 'platform-sandbox/storybook'
import { createAccountStatus } from './account-status.ts'

const meta = {
  title: 'AccountStatus',
  // `loaded.sandbox` comes from the sandbox loader: the story's persona, signed in.
  render: (_args, { loaded }) => {
    const { accessToken } = loaded.sandbox as StorySandbox
    return createAccountStatus(accessToken ?? 'signed-out')
  },
} satisfies Meta

export default meta
type Story = StoryObj

export const Host: Story = {
  parameters: { sandbox: { persona: 'host' } },
}

export const RestrictedHost: Story = {
  parameters: { sandbox: { persona: 'host-restricted' } },
}

export const GuestInEmptyScenario: Story = {
  parameters: { sandbox: { scenario: 'empty', persona: 'guest' } },
}
