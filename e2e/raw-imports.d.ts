// Vite's `?raw` imports, for the Node-side type check (the browser config has vite/client).
declare module '*?raw' {
  const text: string
  export default text
}
