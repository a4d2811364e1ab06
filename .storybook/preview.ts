/**
 * Every story runs against the sandbox in the preview: msw-storybook-addon starts
 * the worker on the sandbox handlers, and the sandbox loader resets the state to
 * the story's `parameters.sandbox` before it renders.
 */
import '../e2e/app/style.css'
import type { Preview } from '@storybook/html-vite'
import { initialize, mswLoader } from 'msw-storybook-addon'
import { createStorybookSandbox } from '../mocks/storybook.ts'

const { handlers, loader } = createStorybookSandbox()

initialize({ onUnhandledRequest: 'bypass', quiet: true }, handlers)

const preview: Preview = {
  loaders: [mswLoader, loader],
  parameters: { layout: 'padded' },
}

export default preview
