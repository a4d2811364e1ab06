import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { controlRoutes, errorCodes } from '../mocks/core/index.ts'
import { type ServerRoute, serverRoutes } from '../server/control-routes.ts'
import {
  CLI_PAGE,
  CONTROL_API_PAGE,
  cliPage,
  controlApiPage,
  ERRORS_PAGE,
  errorsPage,
} from './reference-docs.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8')

describe('the generated reference pages', () => {
  it('hold the control API as the route table declares it (npm run docs:reference)', async () => {
    const page = await controlApiPage()
    expect(read(CONTROL_API_PAGE)).toBe(page)
    const table: readonly ServerRoute[] = [...controlRoutes, ...serverRoutes]
    for (const route of table.filter((candidate) => !candidate.asset)) {
      expect(page).toContain(`| ${route.method} | \`${route.path}\` |`)
    }
    expect(page).toMatch(
      /\| POST \| `\/__sandbox\/reset` \| .+ \| `scenario\?`, `seed\?`, `snapshot\?` \|/,
    )
  })

  it('hold every option of the CLI as --help prints it (npm run docs:reference)', () => {
    const page = cliPage()
    expect(read(CLI_PAGE)).toBe(page)
    for (const flag of ['--state-dir', '--max-sessions', '--control-token', '--target']) {
      expect(page).toContain(flag)
    }
    expect(page).toContain('## `platform-sandbox state repair`')
  })

  it('hold every error status with its code (npm run docs:reference)', () => {
    const page = errorsPage()
    expect(read(ERRORS_PAGE)).toBe(page)
    for (const [status, code] of Object.entries(errorCodes)) {
      expect(page).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\| \\w`))
    }
  })
})
