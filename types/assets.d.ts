// Files imported `with { type: "file" }` resolve to a path (inside the compiled binary a
// `$bunfs` path). Declaring them keeps `tsc --noEmit` strict about everything else.
declare module "*.wasm" {
  const path: string;
  export default path;
}

// Scalar's standalone API-reference bundle, embedded for the offline /docs page.
declare module "*/standalone.js" {
  const path: string;
  export default path;
}

// The schema changes (src/store/migrations/), imported `with { type: "text" }`: their SQL.
declare module "*.sql" {
  const text: string;
  export default text;
}
