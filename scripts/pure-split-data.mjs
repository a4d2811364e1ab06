/**
 * @module
 * A Rolldown plugin for the library build: faker writes its locale data as
 * `` `a,b,c`.split(`,`) ``, a call that bundlers keep even when nothing reads the result.
 * This marks each such call on a literal `/* @__PURE__ *\/`, so that the data the
 * sandbox never reads (faker's `base` locale) is left out of the bundle.
 */
import { parseAst } from 'rolldown/parseAst'

/** `` `text`.split(`,`) `` or `'text'.split(',')`: a literal split by a literal. */
function isLiteralSplit(node) {
  const isLiteral = (value) =>
    (value?.type === 'Literal' && typeof value.value === 'string') ||
    (value?.type === 'TemplateLiteral' && value.expressions.length === 0)
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.property.name === 'split' &&
    isLiteral(node.callee.object) &&
    node.arguments.length === 1 &&
    isLiteral(node.arguments[0])
  )
}

function collect(node, found) {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const child of node) collect(child, found)
    return
  }
  if (typeof node.type === 'string' && isLiteralSplit(node)) found.push(node.start)
  for (const key in node) if (key !== 'parent') collect(node[key], found)
}

/** @param {RegExp} include the modules to annotate */
export function pureSplitData(include) {
  return {
    name: 'pure-split-data',
    transform(code, id) {
      if (!include.test(id) || !code.includes('.split(')) return null
      const starts = []
      collect(parseAst(code, { sourceType: 'module' }, id), starts)
      if (starts.length === 0) return null
      let output = code
      for (const start of starts.sort((a, b) => b - a)) {
        output = `${output.slice(0, start)}/* @__PURE__ */ ${output.slice(start)}`
      }
      return { code: output, map: null }
    },
  }
}
