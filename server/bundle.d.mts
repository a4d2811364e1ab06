/** `server/dist/`, where the bundle goes. */
export declare const outdir: string
/** `server/dist/cli.cjs`, the bundled CLI. */
export declare const entry: string
/** V8's code cache of `entry`. */
export declare const codeCache: string
/** Bundles the server with esbuild, records its inputs and warms its code cache; resolves to `entry`. */
export declare function buildBundle(): Promise<string>
/** Whether the bundle exists and no source it was built from changed since. */
export declare function isBundleFresh(): boolean
