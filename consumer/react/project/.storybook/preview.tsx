import type { Preview } from '@storybook/react-vite'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { createStorybookSandbox } from 'platform-sandbox/storybook'
import { type ReactNode, useState } from 'react'

const { setupWorker, loader } = createStorybookSandbox({
  // The sandbox's panel over the stories that set `parameters.sandbox.devtools`.
  devtools: () => import('platform-sandbox/devtools'),
})

/** A query cache of the story's own, so that no story sees another's answers. */
function WithQueryClient({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  )
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>
}

const preview: Preview = {
  // The addon starts msw's worker on the sandbox; the loader resets it for every story.
  loaders: [mswLoader(setupWorker), loader],
  decorators: [
    (Story, { id }) => (
      <WithQueryClient key={id}>
        <Story />
      </WithQueryClient>
    ),
  ],
}

export default preview
