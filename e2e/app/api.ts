/**
 * @module
 * The example app's API client: plain `fetch` against the Platform API paths. It
 * knows nothing of the sandbox, except that lists the reference lacks (bookings,
 * notifications) are read from the sandbox's control API.
 */

export interface AccountStatus {
  payouts_enabled: boolean
  charges_enabled: boolean
  disabled_reason: string | null
  requirements: Record<
    'past_due' | 'currently_due' | 'pending_verification' | 'eventually_due',
    string[]
  >
}

export interface PersonaSummary {
  key: string
  publicId: string
  displayName: string
  idpCode: string
}

export interface NotificationItem {
  id: string
  userId: string
  title: string
  body: string
  archivedAt: string | null
}

export interface BookingItem {
  id: string
  listingId: string
  guestId: string
  hostId: string
  status: string
  startsAt: string
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** Seconds to wait before retrying, from `Retry-After` (a 429 or 503). */
  readonly retryAfter: number | undefined

  constructor(status: number, message: string, code: string | undefined, retryAfter?: number) {
    super(message)
    this.status = status
    this.code = code
    this.retryAfter = retryAfter
  }
}

export interface Api {
  personas(): Promise<PersonaSummary[]>
  /** `POST /auth/idp/complete`: sets the HttpOnly `refresh_token` cookie. */
  completeSignIn(code: string): Promise<void>
  /** `POST /auth/refresh?dryRun=true` with the cookie only. */
  refresh(): Promise<string>
  /** `GET /payprov/account-status`, or `null` when the caller has no payment account. */
  accountStatus(accessToken: string): Promise<AccountStatus | null>
  follow(accessToken: string, publicId: string): Promise<void>
  declineBooking(accessToken: string, bookingId: string): Promise<void>
  archiveNotification(accessToken: string, id: string): Promise<void>
  notificationsOf(userId: string): Promise<NotificationItem[]>
  pendingBookingsHostedBy(userId: string): Promise<BookingItem[]>
}

/** The public id inside an access token (its `sub` claim). */
export function subjectOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? ''
  const json = atob(payload.replaceAll('-', '+').replaceAll('_', '/'))
  return String((JSON.parse(json) as { sub?: unknown }).sub)
}

export function createApi(baseUrl = ''): Api {
  async function call<T>(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      credentials: 'include',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body ?? null,
    })
    const text = await response.text()
    const body = text ? (JSON.parse(text) as unknown) : undefined
    if (!response.ok) {
      const error = (body ?? {}) as { message?: string; code?: string }
      const retryAfter = response.headers.get('retry-after')
      throw new ApiError(
        response.status,
        error.message ?? `${method} ${path} failed with ${response.status}`,
        error.code,
        retryAfter === null ? undefined : Number(retryAfter),
      )
    }
    return body as T
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  const action = (token: string, path: string) =>
    call<void>('POST', path, { headers: bearer(token), body: '{}' })

  return {
    personas: () => call('GET', '/__sandbox/personas'),
    async completeSignIn(code) {
      await call('POST', '/auth/idp/complete', { body: JSON.stringify({ code }) })
    },
    async refresh() {
      const body = await call<{ accessToken: string }>('POST', '/auth/refresh?dryRun=true', {
        body: '{}',
      })
      return body.accessToken
    },
    async accountStatus(token) {
      try {
        return await call<AccountStatus>('GET', '/payprov/account-status', {
          headers: bearer(token),
        })
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
    follow: (token, id) => action(token, `/users/${encodeURIComponent(id)}/follow`),
    declineBooking: (token, id) => action(token, `/bookings/${encodeURIComponent(id)}/decline`),
    archiveNotification: (token, id) =>
      action(token, `/notifications/${encodeURIComponent(id)}/archive`),
    async notificationsOf(userId) {
      const all = await call<NotificationItem[]>('GET', '/__sandbox/collections/notifications')
      return all.filter((item) => item.userId === userId && item.archivedAt === null)
    },
    async pendingBookingsHostedBy(userId) {
      const all = await call<BookingItem[]>('GET', '/__sandbox/collections/bookings')
      return all.filter((item) => item.hostId === userId && item.status === 'pending')
    },
  }
}
