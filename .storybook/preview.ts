/**
 * Every story runs against the sandbox in the preview: msw-storybook-addon 3 starts
 * the worker on the sandbox handlers (`setupWorker`), and the sandbox loader resets the state to
 * the story's `parameters.sandbox` before it renders. A snapshot exported from a running
 * server (`GET /__sandbox/snapshots/:name`) is a scenario file: given here, stories name it.
 */
import '../e2e/app/style.css'
import type { Preview } from '@storybook/html-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { exampleScenarios } from '../e2e/app/scenarios.ts'
import guestFollowed from '../examples/snapshots/guest-followed.json?raw'
import { createStorybookSandbox } from '../mocks/runtimes/storybook/index.ts'
import { parseScenarioText } from '../mocks/scenarios/parse-text.ts'

const { setupWorker, loader } = createStorybookSandbox({
  scenarios: [
    ...exampleScenarios,
    {
      file: parseScenarioText(guestFollowed, 'examples/snapshots/guest-followed.json'),
      source: 'examples/snapshots/guest-followed.json',
    },
  ],
  // The panels, for the stories that ask (`parameters.sandbox.devtools`).
  devtools: () => import('../mocks/runtimes/devtools/index.ts'),
})

const preview: Preview = {
  loaders: [mswLoader(setupWorker), loader],
  parameters: { layout: 'padded' },
}

export default preview
