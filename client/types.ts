/**
 * @module
 * Types of the Platform Backend API as the sandbox serves it, generated from the merged
 * contract by openapi-typescript: `paths`, `components`, `operations`.
 *
 * @example
 * import type { components } from 'platform-sandbox/types'
 * type Booking = components['schemas']['ApiErrorResponseDto']
 */
export type * from '../spec/generated/platform-api.d.ts'
