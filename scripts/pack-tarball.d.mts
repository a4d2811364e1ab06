/** The repository's root folder. */
export declare const root: string
/** Packs the built package into a new temporary folder (or `destination`); returns the tarball's path. */
export declare function packTarball(destination?: string): string
