/**
 * @module
 * The names a client puts a sandbox session in: the request header and the cookie. Tests,
 * tools and the bench take them from here rather than repeating the strings.
 */
export { SESSION_COOKIE, SESSION_HEADER } from '../core/session-id.ts'
