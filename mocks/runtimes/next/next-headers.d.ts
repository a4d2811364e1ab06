/**
 * The part of Next.js's `next/headers` that `platform-sandbox/next` calls, so that this
 * repository type-checks and builds without installing Next.js (a peer the app brings).
 * In Next.js 15 and 16 `headers()` returns a promise of the request's read-only headers;
 * the consumer test type-checks and builds an app against the real declarations.
 */
declare module 'next/headers' {
  /** The incoming request's headers, read-only. */
  export function headers(): Promise<{ get(name: string): string | null }>
}
