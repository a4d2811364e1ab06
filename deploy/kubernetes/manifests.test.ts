/**
 * The Kubernetes manifests of replicas on Redis and the Prometheus scrape configuration
 * (docs/operate/replicas-and-metrics.md): valid against the Kubernetes schemas
 * (`kubernetes-models`; no cluster runs here), agreeing with the image (port, user), with each
 * other (Secret keys, Services, labels, port names) and with a real server (the probes answer
 * without the token, the metrics with it).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1'
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1'
import { Service } from 'kubernetes-models/v1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments, parse as parseYaml } from 'yaml'
import { createProgram, parseCliArguments } from '../../cli/cli-options.ts'
import { startTestServer, type TestServer } from '../../test-support/server/test-server.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8')
const MANIFESTS = 'deploy/kubernetes/replicas.yaml'
const SCRAPE = 'deploy/kubernetes/prometheus-scrape.yaml'

const models = { Deployment, StatefulSet, Service, Ingress } as const
type Kind = keyof typeof models

type Manifest = {
  kind: Kind
  metadata: { name: string; annotations?: Record<string, string> }
  spec: any
}
const manifests = parseAllDocuments(read(MANIFESTS)).map((document) =>
  document.toJSON(),
) as Manifest[]
const find = (kind: Kind, name: string) =>
  manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name)!

const dockerfile = read('Dockerfile')
const imageUid = Number(/useradd --uid (\d+)/.exec(dockerfile)?.[1])
const imagePort = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1])

const sandbox = find('Deployment', 'platform-sandbox')
const pod = sandbox.spec.template.spec
const container = pod.containers[0]

describe('the Kubernetes manifests of replicas on Redis', () => {
  it('are valid against the Kubernetes schemas', () => {
    expect(manifests.map((manifest) => manifest.kind)).toEqual([
      'Deployment',
      'Service',
      'Ingress',
      'StatefulSet',
      'Service',
    ])
    for (const manifest of manifests) {
      const Model = models[manifest.kind] as new (value: unknown) => { validate(): void }
      expect(() => new Model(manifest).validate(), manifest.kind).not.toThrow()
    }
  })

  it('would be refused by the schemas if a field had the wrong type', () => {
    const broken = structuredClone(sandbox)
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http'
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort must be integer/)
  })

  it('run several replicas of the image, as its user, on its port', () => {
    expect(sandbox.spec.replicas).toBeGreaterThanOrEqual(2)
    expect(pod.securityContext.runAsUser).toBe(imageUid)
    expect(container.ports[0].containerPort).toBe(imagePort)
    expect(sandbox.spec.template.metadata.labels).toEqual(sandbox.spec.selector.matchLabels)
  })

  it('probe readiness on /__sandbox/ready and liveness on /__sandbox/health', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/__sandbox/ready', port: 'http' })
    expect(container.livenessProbe.httpGet).toEqual({ path: '/__sandbox/health', port: 'http' })
  })

  it('take the control token and the signing secret from the Secret the comment creates', () => {
    const secrets = Object.fromEntries(
      container.env.map((variable: { name: string; valueFrom: { secretKeyRef: object } }) => [
        variable.name,
        variable.valueFrom.secretKeyRef,
      ]),
    )
    expect(secrets).toEqual({
      SANDBOX_CONTROL_TOKEN: { name: 'platform-sandbox', key: 'control-token' },
      SANDBOX_SECRET: { name: 'platform-sandbox', key: 'signing-secret' },
    })
    const created = read(MANIFESTS)
    expect(created).toContain('kubectl create secret generic platform-sandbox')
    for (const key of ['control-token', 'signing-secret'])
      expect(created).toContain(`--from-literal=${key}=`)
    const known = new Set(
      createProgram()
        .helpInformation()
        .match(/SANDBOX_[A-Z_]+/g),
    )
    for (const name of Object.keys(secrets)) expect(known).toContain(name)
  })

  it('point --state at the Redis Service, which selects the Redis pods', () => {
    const redis = find('StatefulSet', 'platform-sandbox-redis')
    const service = find('Service', 'platform-sandbox-redis')
    const [port] = service.spec.ports
    expect(container.args).toEqual(['--state', `redis://${service.metadata.name}:${port.port}/0`])
    // The command line takes them as the Redis store's URL.
    expect(parseCliArguments(container.args, {}).state).toBe(
      `redis://${service.metadata.name}:${port.port}/0`,
    )
    expect(service.spec.selector).toEqual(redis.spec.template.metadata.labels)
    const [server] = redis.spec.template.spec.containers
    expect(server.ports.map((candidate: { name: string }) => candidate.name)).toContain(
      port.targetPort,
    )
    // Every write in Redis's append-only file (the promise the docs state).
    expect(server.args.join(' ')).toMatch(/--appendonly yes --appendfsync (always|everysec)/)
  })

  it('balance freely: the Service and the Ingress hash nothing', () => {
    const service = find('Service', 'platform-sandbox')
    expect(service.spec.selector).toEqual(sandbox.spec.selector.matchLabels)
    expect(service.spec.sessionAffinity).toBeUndefined()
    expect(service.spec.ports[0].targetPort).toBe(container.ports[0].name)
    const ingress = find('Ingress', 'platform-sandbox')
    expect(Object.keys(ingress.metadata.annotations ?? {}).join(' ')).not.toMatch(/hash|affinity/)
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe('platform-sandbox')
  })
})

describe('the Prometheus scrape configuration', () => {
  const [job] = parseYaml(read(SCRAPE)).scrape_configs
  it('keeps the sandbox pods by their label and port name, with the control token', () => {
    expect(job.metrics_path).toBe('/__sandbox/metrics')
    expect(job.authorization.type).toBe('Bearer')
    expect(job.authorization.credentials_file).toMatch(/control-token$/)
    const kept = Object.fromEntries(
      job.relabel_configs
        .filter((rule: { action?: string }) => rule.action === 'keep')
        .map((rule: { source_labels: string[]; regex: string }) => [
          rule.source_labels[0],
          rule.regex,
        ]),
    )
    expect(kept).toEqual({
      __meta_kubernetes_pod_label_app: sandbox.spec.template.metadata.labels.app,
      __meta_kubernetes_pod_container_port_name: container.ports[0].name,
    })
  })
})

describe('a server as the manifests probe and scrape it (a pod IP as Host)', () => {
  let server: TestServer
  const token = 'kubernetes-token-1'
  const podHost = { host: `10.0.0.7:${imagePort}` }
  beforeAll(async () => {
    server = await startTestServer({ controlToken: token })
  })
  afterAll(() => server.close())

  it('answers both probes without the token', async () => {
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      const answer = await server.request(probe.httpGet.path, { headers: podHost })
      expect(answer.status, probe.httpGet.path).toBe(200)
    }
  })

  it('answers the scrape with the token only', async () => {
    const [job] = parseYaml(read(SCRAPE)).scrape_configs
    expect((await server.request(job.metrics_path, { headers: podHost })).status).toBe(401)
    const scraped = await server.request(job.metrics_path, {
      headers: { ...podHost, authorization: `Bearer ${token}` },
    })
    expect(scraped.status).toBe(200)
    expect(scraped.text).toContain('# TYPE sandbox_requests_total counter')
  })
})
