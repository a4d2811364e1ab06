/**
 * Storybook for the example components. `mockServiceWorker.js` is served from
 * `e2e/public`; telemetry is off, so building needs no network.
 */
import type { StorybookConfig } from '@storybook/html-vite'

const config: StorybookConfig = {
  stories: ['../e2e/stories/*.stories.ts'],
  framework: { name: '@storybook/html-vite', options: {} },
  staticDirs: ['../e2e/public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  async viteFinal(viteConfig) {
    viteConfig.build = {
      ...viteConfig.build,
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        ...viteConfig.build?.rollupOptions,
        onwarn(warning, warn) {
          if (warning.code !== 'INVALID_ANNOTATION') warn(warning)
        },
      },
    }
    return viteConfig
  },
}

export default config
