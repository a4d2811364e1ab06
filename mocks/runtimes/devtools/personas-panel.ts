/**
 * @module
 * The personas: sign in as one in a click (idp sign-in, which sets the
 * `refresh_token` cookie, then a token refresh, by the sandbox's client), and copy its tokens.
 */
import { html } from 'htm/preact'
import { useEffect, useState } from 'preact/hooks'
import type { Api, Persona } from './api.ts'

interface SignedIn {
  persona: Persona
  accessToken: string
}

function CopyButton(props: { label: string; text: string }) {
  const [done, setDone] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text)
      setDone(true)
    } catch {
      setDone(false)
    }
  }
  return html`<button type="button" onClick=${copy}>${done ? 'Copied' : props.label}</button>`
}

export function PersonasPanel(props: { api: Api }) {
  const { api } = props
  const [personas, setPersonas] = useState<Persona[]>([])
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>()
  const [problem, setProblem] = useState('')

  useEffect(() => {
    void api.control<Persona[]>('personas').then((answer) => setPersonas(answer.body))
  }, [api])

  const signIn = async (persona: Persona) => {
    setProblem('')
    try {
      const { accessToken } = await api.signIn(persona)
      setSignedIn({ persona, accessToken })
      api.host.onSignIn?.(persona, accessToken)
    } catch (error) {
      setProblem((error as Error).message)
    }
  }

  return html`
    <section aria-labelledby="personas-heading" class="panel">
      <h2 id="personas-heading">Personas</h2>
      <p class="help">A persona is a ready-made user (host, guest, admin...): signing in gives this browser its refresh_token cookie, and you its tokens.</p>
      <table>
        <caption class="visually-hidden">Personas of every scenario</caption>
        <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Roles</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          ${personas.map(
            (persona) => html`<tr>
              <th scope="row"><code>${persona.key}</code></th>
              <td>${persona.displayName}</td>
              <td>${persona.roles.join(', ')}</td>
              <td><button type="button" aria-label=${`Sign in as ${persona.key}`} onClick=${() => signIn(persona)}>Sign in</button></td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${problem && html`<p role="alert" class="problem">${problem}</p>`}
      <div role="status" class="signed-in">
        ${
          signedIn &&
          html`<p>Signed in as <strong>${signedIn.persona.displayName}</strong> (${signedIn.persona.key}); the browser now holds its <code>refresh_token</code> cookie.</p>
          <label>Access token (15 minutes on the session clock)
            <textarea readonly rows="3" value=${signedIn.accessToken}></textarea>
          </label>
          <div class="row">
            <${CopyButton} label="Copy access token" text=${signedIn.accessToken} />
            <${CopyButton} label="Copy refresh token" text=${signedIn.persona.refreshToken} />
            <${CopyButton} label="Copy Authorization header" text=${`Bearer ${signedIn.accessToken}`} />
          </div>`
        }
      </div>
    </section>
  `
}
