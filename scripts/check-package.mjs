#!/usr/bin/env node
/**
 * Checks the package as it would be published: publint (package.json against the files),
 * arethetypeswrong (every entry's types resolve, ESM only), every entry's types file declaring
 * each name its module exports, the app document (13
 * operations, no control API) and the links of every Markdown file it ships (each one works in
 * the package),
 * on one tarball of the current build.
 * Usage: `npm run check:package` (after `npm run build`).
 */
import { execFileSync } from 'node:child_process'
import { packTarball, root } from './pack-tarball.mjs'
import { brokenLinks, linkedDocuments } from './readme-links.mjs'

/** A file of the tarball, as text. */
const fileOf = (tarball, path) =>
  execFileSync('tar', ['-xzOf', tarball, `package/${path}`], { encoding: 'utf8' })

/**
 * The entries whose import (the files they import statically, transitively) holds any of the
 * MCP module or its SDK: none may, the standalone server loads it on first use.
 */
function entriesLoadingMcp(tarball) {
  const seen = new Map()
  const read = (file) => {
    if (!seen.has(file)) seen.set(file, fileOf(tarball, file))
    return seen.get(file)
  }
  const staticImports = (file) =>
    [
      ...read(file).matchAll(
        /(?:^|[;\n}])\s*(?:import|export)\s[^'"]*?from\s*['"](\.\/[^'"]+)['"]|(?:^|[;\n])\s*import\s*['"](\.\/[^'"]+)['"]/g,
      ),
    ].map((match) => `dist/${(match[1] ?? match[2]).slice(2)}`)
  const entries = [
    'index',
    'browser',
    'node',
    'playwright',
    'next',
    'storybook',
    'devtools',
    'server',
  ]
  return entries.flatMap((entry) => {
    const pending = [`dist/${entry}.js`]
    const visited = new Set()
    while (pending.length > 0) {
      const file = pending.pop()
      if (visited.has(file)) continue
      visited.add(file)
      if (/modelcontextprotocol|mcp-session-id/.test(read(file))) return [`${entry}: ${file}`]
      pending.push(...staticImports(file))
    }
    return []
  })
}

/** The names a bundled module exports: its `export { a as b, type C }` lists. */
const exportedNames = (text) =>
  [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((match) =>
    match[1]
      .split(',')
      .map((part) =>
        part
          .trim()
          .replace(/^type /, '')
          .split(' as ')
          .pop(),
      )
      .filter(Boolean),
  )

/**
 * The names each entry's JavaScript exports that its types file does not declare: a shared
 * chunk that takes an entry's file name leaves the entry's types in another file.
 */
function namesWithoutTypes(tarball) {
  const { exports } = JSON.parse(fileOf(tarball, 'package.json'))
  return Object.entries(exports).flatMap(([entry, target]) => {
    if (typeof target !== 'object' || !target.types || !target.default) return []
    const declared = new Set(exportedNames(fileOf(tarball, target.types.slice(2))))
    const missing = exportedNames(fileOf(tarball, target.default.slice(2))).filter(
      (name) => !declared.has(name),
    )
    return missing.length > 0 ? [`${entry} (${target.types}): ${missing.join(', ')}`] : []
  })
}

const tarball = packTarball()
console.log(`check:package: ${tarball}`)
const run = (command, args) =>
  execFileSync('npx', ['--no-install', command, ...args], { cwd: root, stdio: 'inherit' })
try {
  run('publint', ['run', tarball, '--strict'])
  run('attw', [
    tarball,
    '--profile',
    'esm-only',
    // Not a module: a YAML file for tools (Prism, editors); attw cannot resolve it.
    '--exclude-entrypoints',
    './openapi.published.yaml',
    '--format',
    'table-flipped',
  ])
  const app = JSON.parse(fileOf(tarball, 'dist/openapi.app.json'))
  const paths = Object.keys(app.paths)
  if (paths.length !== 13 || paths.some((path) => path.startsWith('/__sandbox'))) {
    throw new Error(`openapi.app.json: expected the 13 operations only, found ${paths.join(', ')}`)
  }
  console.log('check:package: openapi.app.json holds the 13 operations and no control API')
  const untyped = namesWithoutTypes(tarball)
  if (untyped.length > 0) {
    throw new Error(`exports that the entry's types file does not declare:\n${untyped.join('\n')}`)
  }
  console.log("check:package: every entry's types file declares each name its module exports")
  const withMcp = entriesLoadingMcp(tarball)
  if (withMcp.length > 0) {
    throw new Error(`entries that load the MCP module when imported:\n${withMcp.join('\n')}`)
  }
  console.log(
    'check:package: no entry loads the MCP module when imported (the server on first use)',
  )
  const shipped = new Set(
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, '')),
  )
  const documents = linkedDocuments(shipped)
  if (!documents.includes('docs/README.md')) {
    throw new Error('the package does not ship the guides (docs/): add "docs" to "files"')
  }
  const read = (path) => fileOf(tarball, path)
  const broken = documents.flatMap((document) =>
    brokenLinks(read(document), shipped, read, document).map((reason) => `${document}: ${reason}`),
  )
  if (broken.length > 0)
    throw new Error(`Links that fail in the installed package:\n${broken.join('\n')}`)
  console.log(
    `check:package: the links of the ${documents.length} Markdown files it ships work in the package`,
  )
} catch (error) {
  if (error instanceof Error && !('status' in error))
    console.error(`check:package: ${error.message}`)
  process.exitCode = 1
}
