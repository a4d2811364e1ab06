import type { Preview } from '@storybook/html-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { createStorybookSandbox } from 'platform-sandbox/storybook'

const { setupWorker, loader } = createStorybookSandbox()

const preview: Preview = {
  // The addon starts msw's worker on the sandbox; the loader resets it for every story.
  loaders: [mswLoader(setupWorker), loader],
}

export default preview
