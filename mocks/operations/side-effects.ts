/**
 * @module
 * The side effects several operations share: a notification to a user and an
 * e-mail in the outbox.
 */
import type { Store } from '../model/store.ts'

export async function notify(
  store: Store,
  now: Date,
  notification: { userId: string; kind: string; title: string; body: string },
): Promise<void> {
  await store.notifications.insert({
    id: store.nextId('ntf'),
    ...notification,
    createdAt: now.toISOString(),
    readAt: null,
    archivedAt: null,
  })
}

/**
 * Most e-mails one session's outbox keeps. Resending a claim e-mail is allowed any number
 * of times, so past this the oldest e-mail is dropped for each new one.
 */
export const OUTBOX_LIMIT = 500

export async function sendEmail(
  store: Store,
  now: Date,
  email: { to: string; subject: string; kind: string },
): Promise<void> {
  while (store.outbox.count() >= OUTBOX_LIMIT) {
    const oldest = store.outbox.find(() => true)
    if (!oldest) break
    store.outbox.delete(oldest.id)
  }
  await store.outbox.insert({ id: store.nextId('msg'), ...email, createdAt: now.toISOString() })
}

export const acknowledgement = { success: true } as const
