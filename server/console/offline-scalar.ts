/**
 * @module
 * Scalar's bundle declares its fonts at fonts.scalar.com and, in this version, loads
 * them even with `withDefaultFonts: false`. Their `url(...)` sources become `local(...)`
 * names no machine has, so the browser falls back to system fonts and the page makes no
 * request that leaves the machine. Applied by the build (`scripts/copy-assets.mjs`) and,
 * when running from the sources, when the script is first served.
 */
export function offlineScalarScript(source: string): string {
  return source.replaceAll('url(https://fonts.scalar.com/', 'local(offline-scalar-font-')
}
