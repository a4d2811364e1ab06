import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript module, shared with check-package.mjs
import { brokenLinks, headingAnchors, linkedDocuments, resolveFrom } from './readme-links.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8')

/** What `npm pack` would ship, without building or packing. */
function shippedFiles(): Set<string> {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const [packed] = JSON.parse(output) as [{ files: { path: string }[] }]
  return new Set(packed.files.map((file) => file.path))
}

describe('the links of every Markdown file the package ships', () => {
  const shipped = shippedFiles()
  const documents: string[] = linkedDocuments(shipped)

  it('are checked in every Markdown file the package ships: README, guides, folder READMEs', () => {
    expect(documents).toEqual([...shipped].filter((path) => path.endsWith('.md')).sort())
    expect(documents).toContain('README.md')
    // The folders' READMEs ship too: their links must resolve without the folders' files.
    for (const readme of ['consumer/README.md', 'consumer/react/README.md', 'contract/README.md'])
      expect(documents).toContain(readme)
    expect(documents).toContain('docs/README.md')
    expect(documents).toContain('docs/frontend/react.md')
    expect(documents).toContain('docs/reference/control-api.md')
    expect(documents.length).toBeGreaterThan(25)
  })

  it('work in node_modules and any file viewer: headings, or files the package ships', () => {
    const broken = documents.flatMap((document) =>
      brokenLinks(read(document), shipped, read, document).map(
        (reason: string) => `${document}: ${reason}`,
      ),
    )
    expect(broken).toEqual([])
  })

  it('start from a README of at most 200 lines that points at the React, Next.js and QA guides', () => {
    const readme = read('README.md')
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200)
    // Within the first screen: the React path, the Next.js path, the QA console.
    const top = readme.split('\n').slice(0, 15).join('\n')
    for (const guide of ['react.md', 'nextjs.md']) expect(top).toContain(`(docs/frontend/${guide})`)
    expect(top).toContain('(docs/qa/dashboard.md)')
  })

  it('are found broken when they point at a file not shipped or a heading not there', () => {
    const readme =
      '# Use it\n\nSee [use](#use-it), [gone](#gone), [server](server/README.md#nope), [x](x.md).\n'
    const shipped = new Set(['server/README.md'])
    expect(brokenLinks(readme, shipped, () => '# Flags\n')).toEqual([
      '#gone: no such heading in the README',
      'server/README.md#nope: no such heading in server/README.md',
      'x.md: the package does not ship x.md',
    ])
  })

  it("are read from the linking file's folder", () => {
    expect(resolveFrom('docs/qa/faults.md', '../../server/README.md')).toBe('server/README.md')
    expect(resolveFrom('docs/qa/faults.md', 'clock.md')).toBe('docs/qa/clock.md')
    expect(resolveFrom('README.md', './docs/README.md')).toBe('docs/README.md')
    const guide = 'See [clock](clock.md#set-it), [top](../../README.md), [out](../x.md).\n'
    const shipped = new Set(['docs/qa/clock.md', 'README.md'])
    expect(brokenLinks(guide, shipped, () => '# Set it\n', 'docs/qa/faults.md')).toEqual([
      '../x.md: the package does not ship docs/x.md',
    ])
  })

  it('name headings as GitHub does', () => {
    const anchors = headingAnchors(
      '## Storybook 10 with `@storybook/react-vite`\n## A: b\n## A: b\n',
    )
    expect([...anchors]).toEqual(['storybook-10-with-storybookreact-vite', 'a-b', 'a-b-1'])
  })
})
