/**
 * @module
 * Each collection with its count, and a searchable, paginated view of its records.
 */
import { html } from 'htm/preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { Api } from './api.ts'

const PAGE = 20

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

export function CollectionsPanel(props: { api: Api }) {
  const { api } = props
  const [counts, setCounts] = useState<Record<string, number>>({})
  const [name, setName] = useState<string | undefined>()
  const [records, setRecords] = useState<Record<string, unknown>[]>([])
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)

  useEffect(() => {
    void api.control('collections').then((answer) => setCounts(answer.body))
  }, [api])
  useEffect(() => {
    if (!name) return
    void api.control(`collections/${name}`).then((answer) => setRecords(answer.body))
    setPage(0)
  }, [api, name])

  const texts = useMemo(
    () => records.map((record) => JSON.stringify(record).toLowerCase()),
    [records],
  )
  const matching = records.filter((_, i) => texts[i]!.includes(search.trim().toLowerCase()))
  const pages = Math.max(1, Math.ceil(matching.length / PAGE))
  const shown = matching.slice(page * PAGE, page * PAGE + PAGE)
  const columns = records[0] ? Object.keys(records[0]).slice(0, 7) : []

  return html`
    <section aria-labelledby="collections-heading" class="panel">
      <h2 id="collections-heading">Collections</h2>
      <p class="help">The session's records by collection, as the API's operations read and write them.</p>
      <ul class="collections">
        ${Object.entries(counts).map(
          ([collection, count]) => html`<li>
            <button type="button" aria-pressed=${collection === name} onClick=${() => setName(collection)}>
              ${collection} <span class="count">${count}</span>
            </button>
          </li>`,
        )}
      </ul>
      ${
        name &&
        html`<div>
          <label>Search ${name}
            <input type="search" value=${search} onInput=${(event: Event) => {
              setSearch((event.target as HTMLInputElement).value)
              setPage(0)
            }} />
          </label>
          <div class="scroll">
            <table>
              <caption>${name}: ${matching.length} of ${records.length} records</caption>
              <thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
              <tbody>
                ${shown.map((record) => html`<tr>${columns.map((column) => html`<td>${cell(record[column])}</td>`)}</tr>`)}
              </tbody>
            </table>
          </div>
          <nav class="row" aria-label="Pages">
            <button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>Previous page</button>
            <span>Page ${page + 1} of ${pages}</span>
            <button type="button" disabled=${page + 1 >= pages} onClick=${() => setPage(page + 1)}>Next page</button>
          </nav>
        </div>`
      }
    </section>
  `
}
