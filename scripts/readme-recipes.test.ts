import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
/** The consumer test's projects: the React app, the vanilla TypeScript one, Next.js, Vue. */
const projects = [
  'consumer/react/project/',
  'consumer/project/',
  'consumer/next/project/',
  'consumer/vue/project/',
]
/** The languages whose blocks a reader copies into a project: each must be a tested file. */
const RECIPE_LANGUAGES = ['ts', 'tsx', 'js', 'json', 'yaml', 'dotenv', 'vue']
/** Put on the line above a block that is not a file to copy, saying why. */
const NOT_A_RECIPE = /^<!-- not a recipe: \S.* -->$/

/** The README and every guide under `docs/`. */
function documents(): string[] {
  const guides = readdirSync(`${root}docs`, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => `docs/${path}`)
  return ['README.md', ...guides.sort()]
}

interface Block {
  /** `README.md:12`: the document and the line of the opening fence. */
  where: string
  language: string
  text: string
  /** The line above the fence. */
  before: string
}

/** The fenced code blocks of a Markdown text. */
function codeBlocks(document: string, markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)/.exec(lines[index]!)
    if (!open) continue
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'))
    blocks.push({
      where: `${document}:${index + 1}`,
      language: open[1]!,
      text: `${lines.slice(index + 1, end).join('\n')}\n`,
      before: lines[index - 1] ?? '',
    })
    index = end
  }
  return blocks
}

/** Every file of the repository, by its text: a block equal to one is that file. */
function repositoryFiles(): Map<string, string> {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n')
  const byText = new Map<string, string>()
  for (const path of files) {
    if (!/\.(ts|tsx|js|mjs|json|ya?ml)$/.test(path) || !existsSync(`${root}${path}`)) continue
    byText.set(readFileSync(`${root}${path}`, 'utf8'), path)
  }
  return byText
}

type Verdict = { recipe: string } | { fragment: true } | { problem: string }

/**
 * What a block is: the file of a consumer project its first line names (`// src/main.tsx`,
 * `# .env.sandbox`),
 * a file of the repository it equals, a fragment marked as such, or a problem.
 */
function judge(block: Block, files: Map<string, string>): Verdict {
  const [first, ...rest] = block.text.split('\n')
  // `// src/main.tsx` in code, `# .env.sandbox` in a file whose comments start with `#`,
  // `<!-- src/App.vue -->` in a Vue single-file component.
  const comment = block.language === 'dotenv' || block.language === 'yaml' ? '#' : '//'
  const named =
    block.language === 'vue'
      ? /^<!-- ([\w./-]+\.vue) -->$/
      : new RegExp(`^${comment} ([\\w./-]+\\.\\w+)$`)
  const path = named.exec(first ?? '')?.[1]
  if (path) {
    const text = rest.join('\n')
    const candidates = projects.filter((project) => existsSync(`${root}${project}${path}`))
    const project = candidates.find(
      (candidate) => readFileSync(`${root}${candidate}${path}`, 'utf8') === text,
    )
    if (project) return { recipe: `${project}${path}` }
    return candidates.length > 0
      ? { problem: `differs from ${candidates.map((c) => `${c}${path}`).join(' and ')}` }
      : { problem: `names ${path}, which no consumer project has` }
  }
  const file = files.get(block.text)
  if (file) return { recipe: file }
  // The MCP guide's client configs: `server/mcp/configs.test.ts` launches what each one says.
  const config = /^<!-- config: ([\w-]+) -->$/.exec(block.before)?.[1]
  if (config && block.where.startsWith('docs/agents/mcp.md:')) {
    return { recipe: `server/mcp/configs.test.ts (config ${config})` }
  }
  if (NOT_A_RECIPE.test(block.before)) return { fragment: true }
  return {
    problem:
      'is neither a tested file (a first line `// <path>` of a consumer project, or a file of the repository) nor marked `<!-- not a recipe: <why> -->`',
  }
}

function recipeBlocks() {
  const files = repositoryFiles()
  return documents().flatMap((document) =>
    codeBlocks(document, readFileSync(`${root}${document}`, 'utf8'))
      .filter((block) => RECIPE_LANGUAGES.includes(block.language))
      .map((block) => ({ block, verdict: judge(block, files) })),
  )
}

describe('the recipes of the README and the guides', () => {
  const judged = recipeBlocks()

  it('are every one a tested file, or marked as not a recipe', () => {
    const problems = judged.flatMap(({ block, verdict }) =>
      'problem' in verdict ? [`${block.where} (${block.language}): ${verdict.problem}`] : [],
    )
    expect(problems).toEqual([])
  })

  it('are the files the consumer test installs and runs, character for character', () => {
    const recipes = new Set(
      judged.flatMap(({ verdict }) => ('recipe' in verdict ? [verdict.recipe] : [])),
    )
    expect([...recipes].filter((path) => path.startsWith('consumer/')).sort()).toEqual(
      [
        'consumer/react/project/.storybook/main.ts',
        'consumer/react/project/.env.production',
        'consumer/react/project/.env.sandbox',
        'consumer/react/project/.storybook/preview.tsx',
        'consumer/react/project/codegen/openapi-ts.config.ts',
        'consumer/react/project/e2e/bookings.spec.ts',
        'consumer/react/project/e2e/devtools.spec.ts',
        'consumer/react/project/e2e/network.spec.ts',
        'consumer/react/project/e2e/stories.spec.ts',
        'consumer/react/project/orval.config.ts',
        'consumer/react/project/playwright.config.ts',
        'consumer/react/project/src/AccountStatus.stories.tsx',
        'consumer/react/project/src/AccountStatus.tsx',
        'consumer/react/project/src/App.test.tsx',
        'consumer/react/project/src/App.tsx',
        'consumer/react/project/src/PendingBookings.tsx',
        'consumer/react/project/src/api.ts',
        'consumer/react/project/src/main.tsx',
        'consumer/react/project/src/orval.test.ts',
        'consumer/react/project/tsconfig.app.json',
        'consumer/react/project/tsconfig.node.json',
        'consumer/react/project/vite.config.ts',
        'consumer/next/project/app/account.tsx',
        'consumer/next/project/app/actions.ts',
        'consumer/next/project/app/bookings.tsx',
        'consumer/next/project/app/page.tsx',
        'consumer/next/project/next.config.ts',
        'consumer/next/project/e2e/bookings.spec.ts',
        'consumer/next/project/playwright.config.ts',
        'consumer/project/.storybook/main.ts',
        'consumer/project/.storybook/preview.ts',
        'consumer/project/e2e/app.spec.ts',
        'consumer/project/src/AccountStatus.stories.ts',
        'consumer/project/scripts/typed-client.mjs',
        'consumer/project/src/bookings.test.ts',
        'consumer/project/src/first.test.ts',
        'consumer/project/src/recorded.test.ts',
        'consumer/project/src/learned.test.ts',
        'consumer/project/src/main.ts',
        'consumer/project/src/api.ts',
        'consumer/project/src/app.ts',
        'consumer/project/src/account-status.ts',
        'consumer/vue/project/e2e/bookings.spec.ts',
        'consumer/vue/project/playwright.config.ts',
        'consumer/vue/project/src/App.vue',
        'consumer/vue/project/src/api.ts',
        'consumer/vue/project/src/bookings.ts',
        'consumer/vue/project/src/components/PendingBookings.vue',
        'consumer/vue/project/src/components/__tests__/App.spec.ts',
        'consumer/vue/project/src/main.ts',
      ].sort(),
    )
  })

  it('are found out when a block is neither a file nor marked', () => {
    const markdown = [
      '```ts',
      '// src/main.ts',
      'changed()',
      '```',
      '',
      '<!-- not a recipe: one option of a larger file -->',
      '```ts',
      "test: { environment: 'jsdom' }",
      '```',
      '',
      '```ts',
      "test: { environment: 'jsdom' }",
      '```',
      '```sh',
      'npm test',
      '```',
    ].join('\n')
    const files = new Map<string, string>()
    const verdicts = codeBlocks('x.md', markdown)
      .filter((block) => RECIPE_LANGUAGES.includes(block.language))
      .map((block) => [block.where, judge(block, files)])
    expect(verdicts).toEqual([
      [
        'x.md:1',
        {
          problem: 'differs from consumer/project/src/main.ts and consumer/vue/project/src/main.ts',
        },
      ],
      ['x.md:7', { fragment: true }],
      ['x.md:11', { problem: expect.stringMatching(/^is neither a tested file/) }],
    ])
  })

  it('show the config file a command reads before the shell block that runs the command', () => {
    // A reader runs the blocks top to bottom: a generator run before its config is shown fails.
    const reads: [command: RegExp, config: string][] = [
      [/(?:^|&& )npm run generate\b/m, '// codegen/openapi-ts.config.ts'],
      [/(?:^|&& )npx orval\b/m, '// orval.config.ts'],
      [/(?:^|&& )npx playwright test\b/m, '// playwright.config.ts'],
    ]
    const problems = documents().flatMap((document) => {
      const blocks = codeBlocks(document, readFileSync(`${root}${document}`, 'utf8'))
      return reads.flatMap(([command, config]) => {
        const shown = blocks.findIndex((block) => block.text.startsWith(`${config}\n`))
        if (shown < 0) return []
        return blocks
          .filter((block, at) => block.language === 'sh' && command.test(block.text) && at < shown)
          .map((block) => `${block.where}: runs ${command.source} before ${config} is shown`)
      })
    })
    expect(problems).toEqual([])
  })

  it('give every spec file the Playwright config they show lists, in the same guide', () => {
    // A reader who copies the config runs what it lists: a spec named there but never shown
    // is a file they cannot have.
    const problems = documents().flatMap((document) => {
      const blocks = codeBlocks(document, readFileSync(`${root}${document}`, 'utf8'))
      const config = blocks.find((block) => block.text.startsWith('// playwright.config.ts\n'))
      if (!config) return []
      const listed = [...config.text.matchAll(/[\w-]+\.spec\.ts/g)].map((match) => match[0])
      return [...new Set(listed)]
        .filter((spec) => !blocks.some((block) => block.text.startsWith(`// e2e/${spec}\n`)))
        .map((spec) => `${config.where}: lists ${spec}, which ${document} never shows`)
    })
    expect(problems).toEqual([])
  })

  it('name the create-vite, create-next-app and create-vue versions the consumer projects were made from', () => {
    const pinned = (leg: string) =>
      /template: '(create-[\w-]+)@(\d+\.\d+\.\d+)'/.exec(readFileSync(`${root}${leg}`, 'utf8'))
    const [, createVite, viteVersion] = pinned('consumer/react/leg.mjs')!
    const [, createNext, nextVersion] = pinned('consumer/next/leg.mjs')!
    const [, createVue, vueVersion] = pinned('consumer/vue/leg.mjs')!
    expect([createVite, createNext, createVue]).toEqual([
      'create-vite',
      'create-next-app',
      'create-vue',
    ])
    const react = readFileSync(`${root}docs/frontend/react.md`, 'utf8')
    const next = readFileSync(`${root}docs/frontend/nextjs.md`, 'utf8')
    const vue = readFileSync(`${root}docs/frontend/vue.md`, 'utf8')
    expect(react).toContain(`npm create vite@${viteVersion} my-app -- --template react-ts`)
    expect(next).toContain(`npx create-next-app@${nextVersion}`)
    // The leg runs this command (`scaffoldVue`, with `--yes`) with the version of `template`.
    expect(vue).toContain(`npm create vue@${vueVersion} -- --ts --vitest --playwright my-app`)
    for (const text of [react, next, vue]) {
      expect(text).not.toMatch(/(create[- ](vite|next-app)|create vue)@latest/)
    }
  })
})
