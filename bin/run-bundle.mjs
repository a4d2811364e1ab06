/**
 * @module
 * Runs the CommonJS bundle through `vm.Script` with V8's code cache, the way
 * Node's own CommonJS loader would run it, minus the parse and compile work the
 * cache saves. The cache is (re)written when the process exits if it was missing
 * or V8 rejected it (another Node version, other flags).
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'

/**
 * Where the code cache of `file` lives: the system's temporary folder, one file per bundle
 * location and Node version (V8 rejects a cache from another version or another source anyway).
 */
export function codeCacheFile(file) {
  const key = createHash('sha256').update(`${file}\0${process.version}`).digest('hex').slice(0, 16)
  return join(tmpdir(), 'platform-sandbox-code-cache', `${key}.cache`)
}

/** Runs `file` as the main CommonJS module, with `cacheFile` as its code cache. */
export function runBundle(file, cacheFile) {
  const source = readFileSync(file, 'utf8')
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData })
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      // At exit, the cache holds every function the run compiled, not just the top level.
      const staging = `${cacheFile}.${process.pid}`
      try {
        mkdirSync(dirname(cacheFile), { recursive: true })
        writeFileSync(staging, script.createCachedData())
        renameSync(staging, cacheFile)
      } catch {
        // A read-only install: start without the cache next time too.
      }
    })
  }
  const wrapper = script.runInThisContext()
  const module = { exports: {}, filename: file, id: '.', loaded: false }
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
}
