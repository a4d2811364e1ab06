import { createAccountStatus } from './account-status.ts'
import { declineBooking, signIn } from './api.ts'

/** A host signs in, sees their payment account and declines a pending booking. */
export function renderApp(root: HTMLElement): void {
  const signInButton = button('Sign in as host', async () => {
    const accessToken = await signIn('idp_host')
    signInButton.remove()
    const declined = document.createElement('p')
    const decline = button('Decline booking bkg_pending', async () => {
      await declineBooking(accessToken, 'bkg_pending')
      declined.textContent = 'Booking bkg_pending declined'
    })
    root.append(createAccountStatus(accessToken), decline, declined)
  })
  root.replaceChildren(signInButton)
}

function button(label: string, onClick: () => Promise<void>): HTMLButtonElement {
  const element = document.createElement('button')
  element.type = 'button'
  element.textContent = label
  element.addEventListener('click', () => {
    onClick().catch((error: unknown) => {
      const alert = document.createElement('p')
      alert.setAttribute('role', 'alert')
      alert.textContent = String(error)
      element.after(alert)
    })
  })
  return element
}
