/**
 * Operations of your own, ready to copy and edit: the reads a host's screens need that the
 * reference does not publish. Served by `platform-sandbox --operations <this file>`, or given as
 * `operations` to `setupSandboxServer`, `startSandboxWorker`... (see
 * docs/frontend/operations-of-your-own.md). A function of the kit, so that a copy in a mounted
 * folder needs no install.
 *
 * @param {import('platform-sandbox').OperationKit} kit
 */
export default function hostScreens({ defineOperation, z, listPage, pageQuery, rulesOn }) {
  const booking = z.object({
    id: z.string(),
    listingId: z.string(),
    guestId: z.string(),
    status: z.enum(['pending', 'accepted', 'declined', 'paid', 'refunded']),
    startsAt: z.string(),
    endsAt: z.string(),
    amount: z.number(),
    currency: z.string(),
  })
  const notification = z.object({
    id: z.string(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    createdAt: z.string(),
    readAt: z.nullable(z.string()),
  })
  const pageOf = (item) =>
    z.object({ items: z.array(item), next: z.nullable(z.string()), total: z.number() })
  const error = { description: 'The error body: statusCode, code, message, details' }
  const user = rulesOn('users', 'user')

  return [
    defineOperation({
      id: 'listHostBookings',
      method: 'GET',
      path: '/host/bookings',
      summary: "The signed-in host's bookings, newest first, filtered by status and paged",
      description:
        'The host screen lists its bookings to act on them (Accept, Decline): the reference publishes declining one (row 8) but no list of them, so a screen cannot show the real status after a reload.',
      auth: { role: 'host' },
      query: z.object({ ...pageQuery, status: z.optional(booking.shape.status) }),
      responses: {
        200: {
          schema: pageOf(booking),
          examples: {
            pending: {
              items: [
                {
                  id: 'bkg_pending',
                  listingId: 'lst_loft',
                  guestId: 'usr_guest',
                  status: 'pending',
                  startsAt: '2026-07-01T15:00:00.000Z',
                  endsAt: '2026-07-04T11:00:00.000Z',
                  amount: 420,
                  currency: 'EUR',
                },
              ],
              next: null,
              total: 1,
            },
          },
        },
        400: error,
        401: error,
        403: error,
      },
      answer: ({ collections, caller, query }) => {
        const own = collections.bookings.filter((record) => record.hostId === caller.publicId)
        own.sort((a, b) => (a.startsAt < b.startsAt ? 1 : a.startsAt > b.startsAt ? -1 : 0))
        const page = listPage(own, { ...query, where: { status: query.status } })
        // What the screen shows of each booking on the page.
        const items = page.items.map(({ hostId: _, declineReason: __, ...shown }) => shown)
        return { ...page, items }
      },
    }),
    defineOperation({
      id: 'listMyNotifications',
      method: 'GET',
      path: '/me/notifications',
      summary: "The signed-in user's notifications not archived, newest first, paged",
      description:
        'The notifications screen lists what the caller has not archived yet; the reference publishes archiving one (row 12) but no list to find its id.',
      auth: 'signedIn',
      query: z.object({ ...pageQuery, unread: z.optional(z.enum(['true', 'false'])) }),
      responses: { 200: { schema: pageOf(notification) }, 400: error, 401: error },
      answer: ({ collections, caller, query }) => {
        const own = collections.notifications.filter(
          (n) =>
            n.userId === caller.publicId &&
            n.archivedAt === null &&
            (query.unread !== 'true' || n.readAt === null),
        )
        own.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
        const page = listPage(own, query)
        const items = page.items.map(({ userId: _, archivedAt: __, ...shown }) => shown)
        return { ...page, items }
      },
    }),
    defineOperation({
      id: 'getUserProfile',
      method: 'GET',
      path: '/users/{userId}/profile',
      summary: "A user's public profile: name, roles, since when, followers",
      description:
        'The profile a follow button sits on; the reference publishes following a user (row 7) but nothing to show who that user is.',
      auth: 'public',
      params: z.object({ userId: z.string().check(z.minLength(1)) }),
      responses: {
        200: {
          schema: z.object({
            publicId: z.string(),
            displayName: z.string(),
            roles: z.array(z.string()),
            memberSince: z.string(),
            followers: z.number(),
          }),
        },
        404: error,
      },
      requires: [
        user.exists({
          key: ({ params }) => params.userId,
          message: ({ params }) => `User "${params.userId}" not found`,
        }),
      ],
      answer: ({ records, collections, params }) => {
        const { publicId, displayName, roles, createdAt } = records.user
        const followers = collections.follows.filter((f) => f.followeeId === params.userId).length
        return { publicId, displayName, roles, memberSince: createdAt, followers }
      },
    }),
  ]
}
