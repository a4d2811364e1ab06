import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.tsx'],
  framework: '@storybook/react-vite',
  // The folder that holds mockServiceWorker.js (`npx msw init public`).
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
}

export default config
