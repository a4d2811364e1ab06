import type { Meta, StoryObj } from '@storybook/react-vite'
import type { StorySandbox } from 'platform-sandbox/storybook'
import { AccountStatus } from './AccountStatus.tsx'

const meta = {
  title: 'AccountStatus',
  // `loaded.sandbox` comes from the sandbox loader: the story's persona, signed in.
  render: (_args, { loaded }) => {
    const { accessToken } = loaded.sandbox as StorySandbox
    return <AccountStatus accessToken={accessToken ?? 'signed-out'} />
  },
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

export const Host: Story = {
  parameters: { sandbox: { persona: 'host' } },
}

export const RestrictedHost: Story = {
  parameters: { sandbox: { persona: 'host-restricted' } },
}

export const GuestInEmptyScenario: Story = {
  parameters: { sandbox: { scenario: 'empty', persona: 'guest' } },
}
