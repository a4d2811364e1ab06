/** `dist/cli/`, where the bundle goes. */
export declare const outdir: string
/** `dist/cli/cli.cjs`, the bundled CLI. */
export declare const entry: string
/** Bundles the server with esbuild, records its inputs and warms its code cache; resolves to `entry`. */
export declare function buildBundle(): Promise<string>
/** Whether the bundle exists and no source it was built from changed since. */
export declare function isBundleFresh(): boolean
