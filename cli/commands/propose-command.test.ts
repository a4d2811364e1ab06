/**
 * `platform-sandbox propose`: the shipped examples as an OpenAPI Overlay 1.0 on the published
 * contract, applied here with openapi-format (the library `npm run generate` applies the
 * sandbox's overlay with) and linted with Spectral as `npm run lint:spec` runs it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type OpenAPIOverlayAction, openapiOverlay } from 'openapi-format'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadPublishedDocument } from '../../scripts/spec/build-document.ts'
import merged from '../../spec/merged-document.ts'
import { runTestCommand } from '../../test-support/server/test-cli.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const examples = join(root, 'examples/operations/index.mjs')
const folder = mkdtempSync(join(tmpdir(), 'sandbox-propose-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

type Result = { severity: number; code: string; path: string[] }
type Document = { paths: Record<string, Record<string, Record<string, unknown>>> }

async function applied(
  document: object,
  overlay: { actions: OpenAPIOverlayAction[] },
): Promise<Document> {
  const copy = structuredClone(document) as Parameters<typeof openapiOverlay>[0]
  const { data } = await openapiOverlay(copy, { overlaySet: overlay })
  return data as Document
}

/** Spectral's errors and warnings on `document` under `ruleset` (`spec/`), as lint:spec runs it. */
function spectralProblems(document: object, ruleset: string): string[] {
  const file = join(folder, `linted-${ruleset}.json`)
  writeFileSync(file, JSON.stringify(document))
  const cli = join(root, 'node_modules/@stoplight/spectral-cli/dist/index.js')
  const report = join(folder, `spectral-${ruleset}.json`)
  const ruleFile = join(root, 'spec', ruleset)
  const args = [cli, 'lint', file, '--ruleset', ruleFile, '-f', 'json', '-o', report]
  const { status } = spawnSync(process.execPath, [...args, '--fail-severity', 'warn'])
  const results = JSON.parse(readFileSync(report, 'utf8')) as Result[]
  expect(status).toBe(results.some((result) => result.severity <= 1) ? 1 : 0)
  return results
    .filter((result) => result.severity <= 1)
    .map((result) => `${result.code} at ${result.path.join('.')}`)
}

describe('platform-sandbox propose', () => {
  it('writes the shipped examples as an overlay that Spectral passes once applied', async () => {
    const out = join(folder, 'proposal.json')
    const written = await runTestCommand(['propose', '--operations', examples, '--out', out])
    expect(written).toMatchObject({ code: 0 })
    expect(written.stderr).toContain(`3 proposed operations to ${out}`)
    const overlay = JSON.parse(readFileSync(out, 'utf8'))
    expect(overlay).toMatchObject({ overlay: '1.0.0', info: { version: '1.0.0' } })
    expect(overlay.actions.map((action: { target: string }) => action.target)).toEqual([
      '$.paths',
      '$.paths',
      '$.paths',
      '$',
    ])

    const published = await loadPublishedDocument()
    expect(published.paths['/host/bookings']).toBeUndefined()
    const document = await applied(published, overlay)
    expect(document.paths['/host/bookings']?.get).toMatchObject({
      operationId: 'listHostBookings',
      'x-sandbox-proposed': true,
      tags: ['Proposed'],
      security: [{ bearerAuth: [] }],
    })
    expect(document.paths['/users/{userId}/profile']?.get?.operationId).toBe('getUserProfile')
    expect(document.paths['/auth/refresh']).toEqual(published.paths['/auth/refresh'])
    // The published contract's ruleset: spec/spectral.yaml less the reference's own gaps.
    expect(spectralProblems(document, 'spectral.published.yaml')).toEqual([])
    // The full ruleset, on the document the sandbox serves with the proposal applied.
    expect(spectralProblems(await applied(merged, overlay), 'spectral.yaml')).toEqual([])

    // --document: the published contract with the overlay applied, as a YAML file.
    const whole = join(folder, 'proposed.openapi.yaml')
    const args = ['propose', '--operations', examples, '--document', '--out', whole]
    expect(await runTestCommand(args)).toMatchObject({ code: 0 })
    expect(parse(readFileSync(whole, 'utf8'))).toEqual(document)
  })

  it('warns of a proposal the published contract already has, and leaves it out', async () => {
    const file = join(folder, 'retired.mjs')
    writeFileSync(
      file,
      `export default ({ defineOperation, z }) => [defineOperation({
        id: 'accountStatus', method: 'GET', path: '/payprov/account-status', summary: 'Mine',
        auth: 'signedIn', responses: { 200: { schema: z.object({ ok: z.boolean() }) } },
        answer: () => ({ ok: true }),
      })]\n`,
    )
    const { code, stdout, stderr } = await runTestCommand(['propose', '--operations', file])
    expect(code).toBe(0)
    expect(stderr).toContain(
      'operation "accountStatus": GET /payprov/account-status is the built-in operation getAccountStatus, which answers: retire this proposal',
    )
    expect(JSON.parse(stdout).actions.map((action: { target: string }) => action.target)).toEqual([
      '$',
    ])
  })

  it.each([
    ['no file', 'missing.mjs', undefined, 'no such file'],
    ['a file that does not load', 'broken.mjs', 'export default [', 'does not load'],
  ])('refuses %s: exit code 2, one line naming the file', async (_, name, text, problem) => {
    const file = join(folder, name)
    if (text !== undefined) writeFileSync(file, text)
    const out = join(folder, `${name}.json`)
    const { code, stderr } = await runTestCommand(['propose', '--operations', file, '--out', out])
    expect(code).toBe(2)
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`${file}: ${problem}`)
  })
})
