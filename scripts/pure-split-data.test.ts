import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript module of the repository's scripts
import { pureSplitData } from './pure-split-data.mjs'

const plugin = pureSplitData(/\.js$/) as {
  transform(code: string, id: string): { code: string } | null
}
const annotate = (code: string) => plugin.transform(code, '/virtual/module.js')?.code ?? code

describe('pureSplitData', () => {
  it('marks a literal split by a literal as pure, in templates and quotes alike', () => {
    expect(annotate('const a = `x.y.z`.split(`.`), b = "p,q".split(",")\n')).toBe(
      'const a = /* @__PURE__ */ `x.y.z`.split(`.`), b = /* @__PURE__ */ "p,q".split(",")\n',
    )
  })

  it('leaves every other call alone, and the text of strings that mention split', () => {
    const code = [
      'const a = name.split(",")',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: code under test, with a placeholder
      'const b = `${name}.x`.split(".")',
      'const c = "a.b".split(separator)',
      'const d = "text with `x`.split(`.`) in it"',
      'const e = "a.b".split(".", 1)',
    ].join('\n')
    expect(annotate(code)).toBe(code)
  })

  it('lets a bundle drop the faker locale data nothing reads', async () => {
    const input = fileURLToPath(new URL('./pure-split-data.fixture.js', import.meta.url))
    const bundle = async (plugins: unknown[]) => {
      const result = await build({
        input,
        write: false,
        platform: 'neutral',
        plugins: plugins as never,
        logLevel: 'silent',
      })
      return result.output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n')
    }
    const without = await bundle([])
    const withPlugin = await bundle([pureSplitData(/[\\/]@faker-js[\\/]faker[\\/]dist[\\/]/)])
    // faker's `base` locale: its time zones and MIME types.
    expect(without).toContain('Africa/Abidjan')
    expect(withPlugin).not.toContain('Africa/Abidjan')
    expect(withPlugin).not.toContain('application/epub+zip')
    // What the entry uses is still there.
    expect(withPlugin).toContain('Failed to seed')
    expect(withPlugin.length).toBeLessThan(without.length - 15_000)
  }, 60_000)
})
