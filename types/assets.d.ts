// Files imported `with { type: "file" }` resolve to a path (inside the compiled binary a
// `$bunfs` path). Declaring them keeps `tsc --noEmit` strict about everything else.
declare module "*.wasm" {
  const path: string;
  export default path;
}
