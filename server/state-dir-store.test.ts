import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { describeStateStore } from '../test-support/state-store.contract.ts'
import { openStateDir } from './state-dir.ts'

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

describeStateStore('state directory', () => {
  const directory = mkdtempSync(join(tmpdir(), 'sandbox-store-'))
  directories.push(directory)
  return { open: () => openStateDir(directory).sandboxOptions.store }
})
