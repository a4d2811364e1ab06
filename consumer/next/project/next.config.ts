import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // What create-next-app 16 writes: a component that reads the request renders at request
  // time, and must then sit inside <Suspense> (`next build` fails otherwise).
  cacheComponents: true,
}

export default nextConfig
