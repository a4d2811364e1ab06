/**
 * The container examples of the guide (docs/operate/container-and-ci.md) (Compose, a CI `services:` entry, Kubernetes) are these
 * files, and they ask of the image only what it does: variables the command reads, its
 * port, user and health path, the session header the nginx scale-out test hashes. The
 * tools themselves (Docker Compose, GitHub Actions, Kubernetes) do not run here.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments, parse as parseYaml } from 'yaml'
import { createProgram, parseCliArguments } from '../../cli/cli-options.ts'
import { SESSION_HEADER } from '../../mocks/sandbox-client/sandbox-client.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8')
const examples = [
  'deploy/container/compose.yaml',
  'deploy/container/github-actions.yml',
  'deploy/container/kubernetes.yaml',
]
const dockerfile = read('Dockerfile')

/** The image's own `ENV`, as the command sees it before any example adds to it. */
const imageEnv: Record<string, string> = Object.fromEntries(
  [...dockerfile.matchAll(/\b(SANDBOX_[A-Z_]+)=(\S*)/g)].map((match) => [match[1]!, match[2]!]),
)
const imageUid = Number(/useradd --uid (\d+)/.exec(dockerfile)?.[1])
const imagePort = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1])

/** Parses like the command in the image, with `env` added to the image's environment. */
function optionsIn(env: Record<string, string>) {
  const program = createProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
  return parseCliArguments([], { ...imageEnv, ...env }, program)
}

describe('the container examples', () => {
  it('are in the containers guide, character for character', () => {
    const readme = read('docs/operate/container-and-ci.md')
    for (const path of examples) expect(readme, path).toContain(`\`\`\`yaml\n${read(path)}\`\`\``)
  })

  it('name only variables the command reads', () => {
    const known = new Set(
      createProgram()
        .helpInformation()
        .match(/SANDBOX_[A-Z_]+/g),
    )
    expect(known.size).toBeGreaterThan(5)
    for (const path of [...examples, 'Dockerfile']) {
      for (const name of read(path).match(/SANDBOX_[A-Z_]+/g) ?? []) {
        if (name === 'SANDBOX_URL') continue // the tests' own variable in the CI example
        expect(known, `${path}: ${name}`).toContain(name)
      }
    }
  })

  it('agree with the image on its port, user and health check', () => {
    expect(imagePort).toBe(4010)
    expect(imageEnv.SANDBOX_HOST).toBe('0.0.0.0')
    expect(dockerfile).toContain('/__sandbox/health')
    const [deployment, service, ingress] = parseAllDocuments(read(examples[2]!)).map((document) =>
      document.toJSON(),
    )
    const pod = deployment.spec.template.spec
    expect(pod.securityContext.runAsUser).toBe(imageUid)
    expect(pod.securityContext.fsGroup).toBe(imageUid)
    const [container] = pod.containers
    expect(container.ports[0].containerPort).toBe(imagePort)
    expect(container.readinessProbe.httpGet.path).toBe('/__sandbox/health')
    expect(service.spec.ports[0].targetPort).toBe(container.ports[0].name)
    // ingress-nginx hashes the header the nginx scale-out test hashes (deploy/nginx).
    const hashed = ingress.metadata.annotations['nginx.ingress.kubernetes.io/upstream-hash-by']
    expect(hashed).toBe(`$http_${SESSION_HEADER.replaceAll('-', '_')}`)
    expect(read('deploy/nginx/platform-sandbox.conf')).toContain(`map ${hashed} `)

    const compose = parseYaml(read(examples[0]!))
    expect(compose.services.sandbox.ports).toEqual([`127.0.0.1:4010:${imagePort}`])
    const actions = parseYaml(read(examples[1]!))
    expect(actions.jobs.e2e.services.sandbox.ports).toEqual([`4010:${imagePort}`])
  })

  it('open the control API where only this machine or one CI job reaches it, and protect it in the cluster', () => {
    expect(optionsIn({}).controlClosed).toBe(true)
    const compose = parseYaml(read(examples[0]!))
    expect(optionsIn(compose.services.sandbox.environment).controlClosed).toBeUndefined()
    expect(compose.services.web.environment.VITE_API_URL).toBe('http://localhost:4010')
    const actions = parseYaml(read(examples[1]!))
    expect(optionsIn(actions.jobs.e2e.services.sandbox.env).controlClosed).toBeUndefined()
    const [deployment] = parseAllDocuments(read(examples[2]!)).map((document) => document.toJSON())
    const env = deployment.spec.template.spec.containers[0].env as { name: string }[]
    expect(env.map(({ name }) => name)).toEqual(['SANDBOX_CONTROL_TOKEN'])
    expect(optionsIn({ SANDBOX_CONTROL_TOKEN: 'a-secret-from-the-cluster' })).toMatchObject({
      controlToken: 'a-secret-from-the-cluster',
    })
  })
})
