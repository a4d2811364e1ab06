/**
 * @module
 * The session's clock: where it is, advance it, set it, or put it back to real time.
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import { type Answer, type Api, fieldValue, onSubmit, problemText } from './api.ts'

interface ClockState {
  now: string
  offsetSeconds: number
  real: boolean
}

export function ClockPanel(props: { api: Api }) {
  const { api } = props
  const [clock, setClock] = useState<ClockState | undefined>()
  const [fetchedAt, setFetchedAt] = useState(0)
  const [, setTick] = useState(0)
  const [advance, setAdvance] = useState('901')
  const [setTo, setSetTo] = useState('')
  const [problem, setProblem] = useState('')

  const show = (answer: Answer<ClockState>) => {
    if (!answer.ok) return setProblem(problemText(answer))
    setProblem('')
    setClock(answer.body)
    setFetchedAt(Date.now())
  }
  useEffect(() => {
    void api.control('clock').then(show)
    const timer = setInterval(() => setTick((t) => t + 1), 1000)
    return () => clearInterval(timer)
  }, [api])

  const now = clock ? new Date(Date.parse(clock.now) + (Date.now() - fetchedAt)) : undefined
  return html`
    <section aria-labelledby="clock-heading" class="panel">
      <h2 id="clock-heading">Clock</h2>
      <p class="help">This session's own clock, which its tokens and timestamps use: advanced 901 s, access tokens expire.</p>
      <p>
        Session time: <time data-testid="clock-now" datetime=${now?.toISOString()}>${now?.toISOString().slice(0, 19).replace('T', ' ')} UTC</time>
        ${clock && (clock.real ? ' (real time)' : html` (<span data-testid="clock-offset">${clock.offsetSeconds > 0 ? '+' : ''}${clock.offsetSeconds} s</span> from real time)`)}
      </p>
      <form class="row" onSubmit=${onSubmit(async () => show(await api.control('clock', { body: { advanceSeconds: Number(advance) } })))}>
        <label>Advance by (seconds)
          <input type="number" step="1" value=${advance} onInput=${(event: Event) => setAdvance(fieldValue(event))} />
        </label>
        <button type="submit">Advance clock</button>
      </form>
      <form class="row" onSubmit=${onSubmit(async () => show(await api.control('clock', { body: { now: setTo } })))}>
        <label>Set to (ISO 8601)
          <input placeholder="2026-06-01T09:00:00Z" value=${setTo} onInput=${(event: Event) => setSetTo(fieldValue(event))} />
        </label>
        <button type="submit">Set clock</button>
        <button type="button" onClick=${async () => show(await api.control('clock', { method: 'DELETE' }))}>Back to real time</button>
      </form>
      ${problem && html`<p role="alert" class="problem">${problem}</p>`}
    </section>
  `
}
