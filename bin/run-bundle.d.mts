/** Where the code cache of `file` lives (the system's temporary folder). */
export declare function codeCacheFile(file: string): string
/** Runs `file` as the main CommonJS module, with `cacheFile` as its code cache. */
export declare function runBundle(file: string, cacheFile: string): void
