/**
 * Every control route of the core answers with a success its schema in the merged document
 * describes. (The document names the same routes as the table: `server/control-routes.test.ts`,
 * since the server adds its own rows.)
 */
import { describe, expect, it } from 'vitest'
import { createDocumentChecker } from '../../contract/fuzz/document-checker.ts'
import { buildMergedDocument } from '../../scripts/spec/build-document.ts'
import { createSandbox } from '../sandbox.ts'
import { controlRoutes } from './control-table.ts'

const merged = await buildMergedDocument()

describe('every control route of the core', () => {
  const checker = createDocumentChecker(merged)
  const sandbox = createSandbox({ openapiDocument: () => merged })
  const calls: Record<string, { path: string; body?: object }> = {
    'POST /__sandbox/scenarios': {
      path: '/__sandbox/scenarios',
      body: { name: 'uploaded', extends: 'empty' },
    },
    'POST /__sandbox/reset': { path: '/__sandbox/reset', body: { scenario: 'empty' } },
    'POST /__sandbox/snapshots': { path: '/__sandbox/snapshots', body: { name: 'saved' } },
    'GET /__sandbox/snapshots/{name}': { path: '/__sandbox/snapshots/saved' },
    'DELETE /__sandbox/snapshots/{name}': { path: '/__sandbox/snapshots/saved' },
    'DELETE /__sandbox/sessions/{id}': { path: '/__sandbox/sessions/qa-dropped' },
    'GET /__sandbox/collections/{name}': { path: '/__sandbox/collections/bookings' },
    'POST /__sandbox/faults': {
      path: '/__sandbox/faults',
      body: { path: '/payprov/account-status', status: 500 },
    },
    'POST /__sandbox/clock': { path: '/__sandbox/clock', body: { advanceSeconds: 60 } },
  }
  // Writes first, then reads, then deletes: the snapshot is saved before it is read and
  // deleted, the rule added before it is removed (and one rule before all of them).
  const order = ['POST', 'GET', 'DELETE']
  const routes = controlRoutes
    .filter((route) => route.handle)
    .sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method))
  let ruleId = ''

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers with a success the document describes',
    async (key, route) => {
      const call =
        key === 'DELETE /__sandbox/faults/{id}'
          ? { path: `/__sandbox/faults/${ruleId}` }
          : (calls[key] ?? { path: route.path })
      const answer = await sandbox.handle({
        method: route.method,
        url: call.path,
        headers: { 'x-sandbox-session': 'qa', 'content-type': 'application/json' },
        body: call.body === undefined ? null : JSON.stringify(call.body),
      })
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
      if (key === 'POST /__sandbox/faults') ruleId = (answer.body as { id: string }).id
      const operation = checker.operations.find(
        (candidate) => candidate.method === route.method && candidate.path === route.path,
      )!
      expect(checker.check(operation, route.method, answer)).toEqual([])
    },
  )
})
