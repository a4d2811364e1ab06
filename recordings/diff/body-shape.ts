/**
 * @module
 * Compares the shape of two JSON bodies, not their values: which fields exist and
 * what type each holds, recursively. Arrays are compared by their first elements.
 */

function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * Where the shape of `target` differs from that of `sandbox`, one line each, naming
 * the field (`body.requirements.past_due`).
 *
 * @example
 * shapeDifferences({ a: 1 }, { b: 1 }) // ['body.a only in the sandbox', 'body.b only at the target']
 */
export function shapeDifferences(sandbox: unknown, target: unknown, path = 'body'): string[] {
  const [left, right] = [kind(sandbox), kind(target)]
  if (left !== right) return [`${path} is ${left} in the sandbox, ${right} at the target`]
  if (left === 'array') {
    const [a, b] = [(sandbox as unknown[])[0], (target as unknown[])[0]]
    if (a === undefined || b === undefined) return []
    return shapeDifferences(a, b, `${path}[]`)
  }
  if (left !== 'object') return []
  const a = sandbox as Record<string, unknown>
  const b = target as Record<string, unknown>
  const differences: string[] = []
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(b, key)) differences.push(`${path}.${key} only in the sandbox`)
    else differences.push(...shapeDifferences(a[key], b[key], `${path}.${key}`))
  }
  for (const key of Object.keys(b)) {
    if (!Object.hasOwn(a, key)) differences.push(`${path}.${key} only at the target`)
  }
  return differences
}
