/** Node 24 from the npm registry's `node` package, installed once in a cache folder; resolves to its `bin` folder. */
export declare function installNode24(log: (line: string) => void): Promise<string>
