/**
 * The control table is the one declaration of `/__sandbox`: the merged document names the
 * same paths and methods, with the same access, and every answer of a control call matches
 * the schema the document gives it.
 */
import { describe, expect, it } from 'vitest'
import { createDocumentChecker } from '../../contract/fuzz/document-checker.ts'
import { buildMergedDocument } from '../../scripts/spec/build-document.ts'
import { createSandbox } from '../sandbox.ts'
import { controlRoutes } from './control-table.ts'

const merged = await buildMergedDocument()

const documented = Object.entries(merged.paths)
  .filter(([path]) => path.startsWith('/__sandbox'))
  .flatMap(([path, item]) =>
    Object.entries(item as Record<string, { 'x-sandbox-auth'?: string; responses: object }>).map(
      ([method, operation]) => ({ path, method: method.toUpperCase(), operation }),
    ),
  )

describe('the control table and the merged document', () => {
  it('name the same routes: every route of the table documented, nothing else', () => {
    const table = controlRoutes
      .filter((route) => !route.asset && !route.mcp)
      .map((route) => `${route.method} ${route.path}`)
      .sort()
    expect(documented.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(table)
  })

  it('agree on who may call each route: only public ones are open under a control token', () => {
    for (const route of controlRoutes.filter((candidate) => !candidate.asset && !candidate.mcp)) {
      const { operation } = documented.find(
        ({ method, path }) => method === route.method && path === route.path,
      )!
      const label = `${route.method} ${route.path}`
      expect('401' in operation.responses, label).toBe(route.access === 'control')
    }
  })

  it('document the 403 of a page of another site on every route that changes state', () => {
    for (const { method, path, operation } of documented.filter(
      (route) => route.method !== 'GET',
    )) {
      const refusal = (operation.responses as Record<string, { description?: string }>)['403']
      expect(refusal?.description, `${method} ${path}`).toMatch(
        /`Origin` is a page of another site/,
      )
    }
  })
})

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
