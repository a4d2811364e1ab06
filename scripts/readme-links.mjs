/**
 * @module
 * The links of every Markdown file the package ships (the README, the guides under `docs/`,
 * the folders' READMEs) as the package page, `node_modules` and any file viewer show them: a link works when it is absolute, or points at a heading of its own file, or at a
 * file the package ships, relative to the linking file (and at a heading of that file, when it
 * names one). Used by `check-package.mjs` on the tarball and by a test.
 */

/** GitHub's anchor of each heading of a Markdown text (a repeated heading gets `-1`, `-2`...). */
export function headingAnchors(markdown) {
  const anchors = new Set()
  const seen = new Map()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*$/.exec(line)
    if (!heading) continue
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** The link targets of a Markdown text, code blocks and code spans left out. */
export function linkTargets(markdown) {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1])
}

/** `path` as seen from the folder of `from`, both relative to the package's root. */
export function resolveFrom(from, path) {
  const parts = from.split('/').slice(0, -1)
  for (const part of path.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

/**
 * The Markdown files whose links must work: every one the package ships (the README, the guides
 * under `docs/`, the folders' READMEs), since a reader may open any of them in `node_modules`.
 */
export function linkedDocuments(shipped) {
  return [...shipped].filter((path) => path.endsWith('.md')).sort()
}

/**
 * The links of `markdown` (the file `from`, `README.md` unless told) that do not work on the
 * package page, each with the reason. `shipped` holds the paths the package ships
 * (`dist/index.js`, `server/README.md`...); `read(path)` gives a shipped Markdown file's text,
 * for its headings.
 */
export function brokenLinks(markdown, shipped, read, from = 'README.md') {
  const own = headingAnchors(markdown)
  const broken = []
  const name = from === 'README.md' ? 'the README' : from
  for (const target of linkTargets(markdown)) {
    if (/^(https?:|mailto:)/.test(target)) continue
    const [path, anchor] = target.split('#')
    if (path === '') {
      if (!own.has(anchor)) broken.push(`${target}: no such heading in ${name}`)
      continue
    }
    const file = resolveFrom(from, path)
    if (!shipped.has(file)) {
      broken.push(`${target}: the package does not ship ${file}`)
      continue
    }
    if (anchor && file.endsWith('.md') && !headingAnchors(read(file)).has(anchor)) {
      broken.push(`${target}: no such heading in ${file}`)
    }
  }
  return broken
}
