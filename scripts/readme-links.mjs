/**
 * @module
 * The README's links as the package page shows them: a link works when it is absolute, or
 * points at a heading of the README, or at a file the package ships (and at a heading of that
 * file, when it names one). Used by `check-package.mjs` on the tarball and by a test.
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

/**
 * The links of `readme` that do not work on the package page, each with the reason.
 * `shipped` holds the paths the package ships (`dist/index.js`, `server/README.md`...);
 * `read(path)` gives a shipped Markdown file's text, for its headings.
 */
export function brokenLinks(readme, shipped, read) {
  const own = headingAnchors(readme)
  const broken = []
  for (const target of linkTargets(readme)) {
    if (/^(https?:|mailto:)/.test(target)) continue
    const [path, anchor] = target.split('#')
    if (path === '') {
      if (!own.has(anchor)) broken.push(`${target}: no such heading in the README`)
      continue
    }
    const file = path.replace(/^\.\//, '')
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
