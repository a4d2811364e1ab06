import type { AnyOperationDeclaration, OperationKit } from 'platform-sandbox'

/** The example operations: `listHostBookings`, `listMyNotifications`, `getUserProfile`. */
export default function hostScreens(kit: OperationKit): AnyOperationDeclaration[]
