/**
 * @module
 * The README's example scenario file, imported as text by the bundler and parsed in
 * the page: how a browser build gives `startSandboxWorker` and Storybook a YAML file.
 */

import hostNoBookings from '../../examples/scenarios/host-no-bookings.yaml?raw'
import { parseScenarioText } from '../../mocks/scenarios/parse-text.ts'
import type { ScenarioFile } from '../../mocks/scenarios/scenario-file.ts'

export const exampleScenarios = [
  parseScenarioText(hostNoBookings, 'examples/scenarios/host-no-bookings.yaml') as ScenarioFile,
]
