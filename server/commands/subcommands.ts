/**
 * @module
 * The names of the CLI's subcommands, apart from their code, so that starting the
 * server does not load the recorder, the diff and the converter.
 */
export const SUBCOMMANDS = ['record', 'examples', 'scenario', 'diff', 'state'] as const

export function isSubcommand(name: string | undefined): boolean {
  return (SUBCOMMANDS as readonly string[]).includes(name ?? '')
}
