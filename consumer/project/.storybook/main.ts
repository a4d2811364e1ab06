import type { StorybookConfig } from '@storybook/html-vite'

const config: StorybookConfig = {
  stories: ['../src/**/*.stories.ts'],
  framework: '@storybook/html-vite',
  // The folder that holds mockServiceWorker.js (`npx msw init public`).
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
}

export default config
