/**
 * @module
 * The session's fault rules: the list, a form to add one, a button to remove each.
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import type { ListedRule as Rule } from '../../core/index.ts'
import { type Api, fieldValue, onSubmit, problemsOf } from './api.ts'

type Kind = 'status' | 'example' | 'networkError' | 'delay'

const STATUSES = [400, 401, 403, 404, 409, 413, 415, 500]
/** What a gateway in front of the backend answers; 429 and 503 say when to retry. */
const GATEWAY_STATUSES = [429, 502, 503, 504]
const RETRY_AFTER_STATUSES = ['429', '503']

function describeRule(rule: Rule): string {
  const answer = rule.networkError
    ? 'network error'
    : rule.example
      ? `example ${rule.example}`
      : rule.status
        ? `status ${rule.status}${GATEWAY_STATUSES.includes(rule.status) ? ' (gateway)' : ''}${rule.retryAfterSeconds !== undefined ? `, Retry-After ${rule.retryAfterSeconds} s` : ''}`
        : 'normal answer'
  const delay =
    rule.delayMs || rule.jitterMs ? `after ${rule.delayMs ?? 0}+${rule.jitterMs ?? 0} ms ` : ''
  const when =
    rule.remaining !== undefined
      ? `, ${rule.remaining} call(s) left`
      : rule.probability !== undefined
        ? `, p=${rule.probability}`
        : ''
  return `${delay}${answer}${rule.persona ? ` for ${rule.persona}` : ''}${when}`
}

export function FaultsPanel(props: { api: Api }) {
  const { api } = props
  const [rules, setRules] = useState<Rule[]>([])
  const [personas, setPersonas] = useState<string[]>([])
  const [form, setForm] = useState({
    method: '*',
    path: '/bookings/:id/decline',
    persona: '',
    kind: 'status' as Kind,
    status: '500',
    example: '',
    delayMs: '',
    times: '',
    probability: '',
    retryAfterSeconds: '',
  })
  const [problems, setProblems] = useState<string[]>([])
  const field = (name: keyof typeof form) => (event: Event) =>
    setForm({ ...form, [name]: fieldValue(event) })

  const load = async () => setRules((await api.control<Rule[]>('faults')).body)
  useEffect(() => {
    void load()
    // Rules count down as requests arrive: keep the list current.
    const timer = setInterval(() => void load(), 2000)
    void api
      .control('personas')
      .then((answer) => setPersonas(answer.body.map((p: { key: string }) => p.key)))
    return () => clearInterval(timer)
  }, [api])

  const add = async () => {
    const rule: Record<string, unknown> = { method: form.method, path: form.path }
    if (form.persona) rule.persona = form.persona
    if (form.kind === 'status') rule.status = Number(form.status)
    const retryAfter = form.kind === 'status' && RETRY_AFTER_STATUSES.includes(form.status)
    if (retryAfter && form.retryAfterSeconds !== '') {
      rule.retryAfterSeconds = Number(form.retryAfterSeconds)
    }
    if (form.kind === 'example') rule.example = form.example
    if (form.kind === 'networkError') rule.networkError = true
    if (form.delayMs !== '') rule.delayMs = Number(form.delayMs)
    if (form.times !== '') rule.times = Number(form.times)
    if (form.probability !== '') rule.probability = Number(form.probability)
    const answer = await api.control('faults', { body: rule })
    setProblems(answer.ok ? [] : problemsOf(answer))
    await load()
  }
  const remove = async (id: string) => {
    await api.control(`faults/${encodeURIComponent(id)}`, { method: 'DELETE' })
    await load()
  }

  return html`
    <section aria-labelledby="faults-heading" class="panel">
      <h2 id="faults-heading">Fault rules</h2>
      <p class="help">A fault rule makes this session's matching requests fail, or answer late, until it is removed; the first rule that matches wins.</p>
      ${rules.length === 0 ? html`<p>No fault rules: every request gets its normal answer.</p>` : null}
      <ul class="rules">
        ${rules.map(
          (rule) => html`<li>
            <code>${rule.id}</code> ${rule.method} <code>${rule.path}</code>: ${describeRule(rule)}
            <button type="button" aria-label=${`Remove rule ${rule.id}`} onClick=${() => remove(rule.id)}>Remove</button>
          </li>`,
        )}
      </ul>
      <form class="grid" onSubmit=${onSubmit(add)} aria-label="Add a fault rule">
        <div class="field"><label for="fault-method">Method</label>
          <select id="fault-method" value=${form.method} onChange=${field('method')}>
            ${['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option value=${m}>${m === '*' ? 'any' : m}</option>`)}
          </select>
        </div>
        <label>Path pattern <input value=${form.path} onInput=${field('path')} required /></label>
        <div class="field"><label for="fault-persona">Persona</label>
          <select id="fault-persona" value=${form.persona} onChange=${field('persona')}>
            <option value="">anyone</option>
            ${personas.map((key) => html`<option value=${key}>${key}</option>`)}
          </select>
        </div>
        <div class="field"><label for="fault-answer">Answer</label>
          <select id="fault-answer" value=${form.kind} onChange=${field('kind')}>
            <option value="status">an error status</option>
            <option value="example">a recorded example</option>
            <option value="networkError">a network error</option>
            <option value="delay">the normal answer, delayed</option>
          </select>
        </div>
        ${
          form.kind === 'status' &&
          html`<div class="field"><label for="fault-status">Status</label>
          <select id="fault-status" value=${form.status} onChange=${field('status')}>
            <optgroup label="The operation's errors">${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}</optgroup>
            <optgroup label="A gateway's answers">${GATEWAY_STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}</optgroup>
          </select>
        </div>`
        }
        ${
          form.kind === 'status' &&
          RETRY_AFTER_STATUSES.includes(form.status) &&
          html`<label>Retry-After (s) <input type="number" min="0" max="86400" placeholder="1" value=${form.retryAfterSeconds} onInput=${field('retryAfterSeconds')} /></label>`
        }
        ${form.kind === 'example' && html`<label>Example name <input value=${form.example} onInput=${field('example')} /></label>`}
        <label>Delay (ms) <input type="number" min="0" max="60000" value=${form.delayMs} onInput=${field('delayMs')} /></label>
        <label>Times <input type="number" min="1" value=${form.times} onInput=${field('times')} /></label>
        <label>Probability <input type="number" min="0" max="1" step="0.05" value=${form.probability} onInput=${field('probability')} /></label>
        <button type="submit">Add rule</button>
      </form>
      ${problems.length > 0 && html`<ul role="alert" class="problem">${problems.map((p) => html`<li>${p}</li>`)}</ul>`}
    </section>
  `
}
