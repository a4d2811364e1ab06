import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BENCHMARKS_PAGE, TABLE_END, TABLE_START, withTable } from './report.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe("the bench's table", () => {
  it('goes to the benchmarks page, which holds the markers; the README holds none', () => {
    const page = readFileSync(`${root}${BENCHMARKS_PAGE}`, 'utf8')
    expect(page).toContain(TABLE_START)
    expect(page).toContain(TABLE_END)
    expect(readFileSync(`${root}README.md`, 'utf8')).not.toContain(TABLE_START)
  })

  it('replaces what is between the markers and keeps the rest of the page', () => {
    const page = `# Benchmarks\n\nBefore.\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nAfter.\n`
    const next = withTable(page, '| new | table |')
    expect(next).toBe(
      `# Benchmarks\n\nBefore.\n\n${TABLE_START}\n| new | table |\n\nRegenerate with \`npm run bench\`; see [bench/README.md](../../bench/README.md).\n${TABLE_END}\n\nAfter.\n`,
    )
    expect(withTable(next, '| new | table |')).toBe(next)
  })

  it('adds the markers at the end of a page without them', () => {
    expect(withTable('# Benchmarks\n', 'table')).toMatch(
      new RegExp(`^# Benchmarks\\n\\n${TABLE_START}\\ntable\\n[\\s\\S]*${TABLE_END}\\n$`),
    )
  })
})
