/**
 * @module
 * A small component: the signed-in user's payment account status and unarchived
 * notifications, each with an Archive button. Used by the example page and by
 * the Storybook stories.
 */
import { type AccountStatus, type Api, ApiError, subjectOf } from './api.ts'
import { h, mount } from './dom.ts'

export interface AccountPanelProps {
  api: Api
  accessToken: string
  /** Called after a notification was archived. */
  onChange?: () => void
}

/** Renders into a new element and starts loading. `ready` settles when the data is shown. */
export function createAccountPanel(props: AccountPanelProps): {
  element: HTMLElement
  ready: Promise<void>
} {
  const element = h('section', { class: 'panel', 'data-testid': 'account-panel' })
  const ready = load(element, props)
  return { element, ready }
}

async function load(element: HTMLElement, props: AccountPanelProps): Promise<void> {
  mount(element, h('p', { class: 'muted' }, 'Loading account…'))
  const userId = subjectOf(props.accessToken)
  try {
    const [status, notifications] = await Promise.all([
      props.api.accountStatus(props.accessToken),
      props.api.notificationsOf(userId),
    ])
    mount(
      element,
      h('h2', {}, 'Payment account'),
      renderStatus(status),
      h('h2', {}, `Notifications (${notifications.length})`),
      notifications.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'no-notifications' }, 'No notifications')
        : h(
            'ul',
            { class: 'list', 'data-testid': 'notifications' },
            ...notifications.map((item) =>
              h(
                'li',
                { 'data-testid': `notification-${item.id}` },
                h('div', {}, h('strong', {}, item.title), h('div', { class: 'muted' }, item.body)),
                h(
                  'button',
                  {
                    type: 'button',
                    'data-testid': `archive-${item.id}`,
                    onclick: async () => {
                      await props.api.archiveNotification(props.accessToken, item.id)
                      props.onChange?.()
                      await load(element, props)
                    },
                  },
                  'Archive',
                ),
              ),
            ),
          ),
    )
  } catch (error) {
    const message = error instanceof ApiError ? `${error.status} ${error.message}` : String(error)
    mount(element, h('p', { class: 'error', role: 'alert' }, `Failed to load: ${message}`))
  }
}

function renderStatus(status: AccountStatus | null): HTMLElement {
  if (status === null) {
    return h('p', { class: 'muted', 'data-testid': 'account-status' }, 'No payment account')
  }
  const flag = (label: string, on: boolean) =>
    h('span', { class: on ? 'badge ok' : 'badge off' }, `${label} ${on ? 'enabled' : 'disabled'}`)
  const due = Object.entries(status.requirements).filter(([, items]) => items.length > 0)
  return h(
    'div',
    { 'data-testid': 'account-status' },
    h(
      'p',
      {},
      flag('Payouts', status.payouts_enabled),
      ' ',
      flag('Charges', status.charges_enabled),
    ),
    status.disabled_reason &&
      h(
        'p',
        { class: 'error', 'data-testid': 'disabled-reason' },
        `Disabled: ${status.disabled_reason}`,
      ),
    due.length > 0 &&
      h(
        'ul',
        { class: 'requirements' },
        ...due.map(([kind, items]) =>
          h('li', {}, `${kind.replaceAll('_', ' ')}: ${items.join(', ')}`),
        ),
      ),
  )
}
