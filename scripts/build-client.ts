/**
 * @module scripts/build-client
 * Bundles the browser client into client-dist/ and writes src/http/client-assets.gen.ts,
 * a module that imports every output `with { type: "file" }` so `bun build --compile`
 * embeds them. Output names carry content hashes, so the build is deterministic: the same
 * sources give byte-identical files and the same generated module.
 *
 * The build is made in a directory of its own and then put in place file by file, each by a
 * rename, the files no longer built removed last: a process that reads client-dist/ meanwhile
 * (a server, or a test process importing the generated module while `npm test`'s release build
 * rebuilds it) finds every file it names, whole — never an emptied directory.
 *
 *   bun run scripts/build-client.ts
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { processAlive } from "../src/base/process-alive.ts";

const root = resolve(import.meta.dir, "..");
const clientDir = join(root, "client");
/** Where the client is served from, and where this build is made before it is put there. */
const servedDir = join(root, "client-dist");
const outDir = join(root, `.client-dist-build-${process.pid}`);
const genFile = join(root, "src/http/client-assets.gen.ts");

/** The pages and the URL paths that serve them (see src/http/client.ts). */
export const PAGES = ["library", "start", "present", "view", "check", "live", "remote", "play"] as const;

const started = performance.now();
// A build killed before it put its files in place left its directory: gone, once its process is.
for (const name of readdirSync(root)) {
  const pid = Number(/^\.client-dist-build-(\d+)$/.exec(name)?.[1]);
  if (pid && !processAlive(pid)) rmSync(join(root, name), { recursive: true, force: true });
}
rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, "assets"), { recursive: true });

function hash(data: string | Uint8Array, length = 10): string {
  return createHash("sha256").update(data).digest("hex").slice(0, length);
}

function fail(what: string, logs: unknown[]): never {
  rmSync(outDir, { recursive: true, force: true });
  console.error(`build-client: ${what} failed`);
  for (const log of logs) console.error(log);
  process.exit(1);
}

// 1. mupdf, served from a versioned folder (it finds its .wasm beside itself). The WASM is
//    10.4 MB and the server needs it too: it is embedded once, gzip-compressed (4.7 MB), and
//    served as gzip (every browser accepts it, also over plain http where brotli is not
//    offered) or inflated for the rare client that accepts no gzip. Shipping it raw plus
//    mupdf's brotli copy cost 14 MB of every binary (docs/development/release.md).
const mupdfPkg = JSON.parse(readFileSync(join(root, "node_modules/mupdf/package.json"), "utf8")) as { version: string };
const vendorPath = `vendor/mupdf-${mupdfPkg.version}`;
mkdirSync(join(outDir, vendorPath), { recursive: true });
for (const name of ["mupdf.js", "mupdf-wasm.js", "mupdf.js.br", "mupdf-wasm.js.br"]) {
  cpSync(join(root, "node_modules/mupdf/dist", name), join(outDir, vendorPath, name));
}
writeGzip(join(root, "node_modules/mupdf/dist/mupdf-wasm.wasm"), join(outDir, vendorPath, "mupdf-wasm.wasm.gz"));
// The API docs' script (Scalar, 4.4 MB → 1.3 MB): only /docs loads it, never the presenter.
mkdirSync(join(outDir, "docs"), { recursive: true });
writeGzip(join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js"), join(outDir, "docs/scalar.js.gz"));
const mupdfUrl = `/${vendorPath}/mupdf.js`;

/** A worker as a bundle of its own, so pages can name its hashed URL; its URL path. */
async function buildWorker(entry: string, what: string, define: Record<string, string>): Promise<string> {
  const built = await Bun.build({
    entrypoints: [join(clientDir, entry)],
    outdir: join(outDir, "assets"),
    naming: "[name]-[hash].[ext]",
    target: "browser",
    format: "esm",
    minify: true,
    define,
  });
  if (!built.success) fail(what, built.logs);
  return "/" + relative(outDir, built.outputs[0]!.path);
}

// 2. The render worker; then the export worker: the only bundle with mediabunny (the muxer),
//    loaded when a recording is exported, which starts a render worker of its own.
const workerUrl = await buildWorker("src/worker/render-worker.ts", "worker bundle", { __DH_MUPDF_URL__: JSON.stringify(mupdfUrl) });
const exportWorkerUrl = await buildWorker("src/export/export-worker.ts", "export worker bundle", { __DH_WORKER_URL__: JSON.stringify(workerUrl), __DH_MUPDF_URL__: JSON.stringify(mupdfUrl) });

// 3. Page scripts, sharing chunks.
const pages = await Bun.build({
  entrypoints: PAGES.map((p) => join(clientDir, `src/pages/${p}.ts`)),
  outdir: outDir,
  naming: { entry: "assets/[name]-[hash].[ext]", chunk: "assets/chunk-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
  splitting: true,
  target: "browser",
  format: "esm",
  minify: true,
  metafile: true,
  define: { __DH_WORKER_URL__: JSON.stringify(workerUrl), __DH_EXPORT_WORKER_URL__: JSON.stringify(exportWorkerUrl), __DH_MUPDF_URL__: JSON.stringify(mupdfUrl) },
});
if (!pages.success) fail("page bundles", pages.logs);
const entryUrl = new Map<string, string>();
for (const output of pages.outputs) {
  if (output.kind === "entry-point") entryUrl.set(basename(output.path).replace(/-[a-z0-9]+\.js$/, ""), "/" + relative(outDir, output.path));
}

/**
 * The chunks a page's script imports, directly or through each other: listed as
 * `<link rel="modulepreload">` in its HTML, so the browser fetches them alongside the entry
 * instead of one level of imports after another (three round trips on the presenter's path).
 */
function staticImports(entry: string): string[] {
  const outputs = pages.metafile?.outputs ?? {};
  const key = (url: string) => `./${url.replace(/^\//, "")}`;
  const seen = new Set<string>();
  const visit = (path: string) => {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind !== "import-statement" || seen.has(imported.path)) continue;
      seen.add(imported.path);
      visit(imported.path);
    }
  };
  visit(key(entry));
  if (!outputs[key(entry)]) fail(`page ${entry}`, ["not in the build's metafile"]);
  return [...seen].map((path) => "/" + path.replace(/^\.\//, ""));
}

// 4. The stylesheet and static images, content-hashed. The stylesheet is kept in parts by page
//    (client/styles/) and served as one file to every page, joined in this order: where rules
//    of equal weight disagree the later one wins, so the order is the cascade's.
const STYLESHEET_PARTS = [
  "base",
  "library",
  "start",
  "presenter",
  "presenter-small-screens",
  "audience",
  "check",
  "live",
  "live-panel",
  "presenter-pdfpc",
  "talk",
  "talk-back",
  "pace",
  "recording",
] as const;
const unlisted = readdirSync(join(clientDir, "styles")).filter((f) => f.endsWith(".css") && !(STYLESHEET_PARTS as readonly string[]).includes(f.slice(0, -".css".length)));
if (unlisted.length) fail("stylesheet", unlisted.map((f) => `client/styles/${f} is not in STYLESHEET_PARTS: add it where its rules belong in the cascade`));
const css = Buffer.concat(STYLESHEET_PARTS.map((part) => readFileSync(join(clientDir, `styles/${part}.css`))));
const cssUrl = `/assets/app-${hash(css)}.css`;
writeFileSync(join(outDir, cssUrl), css);
const icon = readFileSync(join(clientDir, "static/icon.svg"));
writeFileSync(join(outDir, "favicon.svg"), icon);

// 5. HTML pages from templates.
mkdirSync(join(outDir, "pages"), { recursive: true });
for (const page of PAGES) {
  const js = entryUrl.get(page);
  if (!js) fail(`page ${page}`, ["no entry output"]);
  const template = readFileSync(join(clientDir, `pages/${page}.html`), "utf8");
  const preloads = staticImports(js)
    .map((url) => `<link rel="modulepreload" href="${url}">`)
    .join("\n");
  const html = template.replaceAll("%CSS%", cssUrl).replace(/^(<script type="module" src="%JS%"><\/script>)$/m, preloads ? `$1\n${preloads}` : "$1").replaceAll("%JS%", js);
  writeFileSync(join(outDir, `pages/${page}.html`), html);
}

// 6. The service worker at a stable URL; its cache name is the hash of everything it caches.
const files = listFiles(outDir).filter((f) => !f.endsWith(".br"));
const version = hash(files.map((f) => f + ":" + hash(readFileSync(join(outDir, f)), 16)).join("\n"), 12);
/** What the shell needs offline. Page shells are cached under one representative URL each. */
const precache = [
  "/",
  "/present/_",
  "/view/_",
  "/start/_",
  "/play/_",
  "/check",
  "/favicon.svg",
  ...files.filter((f) => f.startsWith("assets/") || f.startsWith("vendor/")).map((f) => "/" + f.replace(/\.gz$/, "")),
];
const sw = await Bun.build({
  entrypoints: [join(clientDir, "src/sw/sw.ts")],
  outdir: outDir,
  naming: "sw.js",
  target: "browser",
  // A classic script: module service workers are not supported everywhere yet.
  format: "iife",
  minify: true,
  define: { __DH_VERSION__: JSON.stringify(version), __DH_PRECACHE__: JSON.stringify(precache) },
});
if (!sw.success) fail("service worker", sw.logs);

// 7. The build put in place (see the header), then the generated module that embeds everything.
const all = listFiles(outDir);
const stale = existsSync(servedDir) ? listFiles(servedDir).filter((f) => !all.includes(f)) : [];
for (const file of all) {
  mkdirSync(dirname(join(servedDir, file)), { recursive: true });
  renameSync(join(outDir, file), join(servedDir, file));
}
rmSync(outDir, { recursive: true, force: true });
const lines = [
  "// @ts-nocheck",
  "// Generated by scripts/build-client.ts — do not edit, do not commit.",
  "",
];
const entries: string[] = [];
all.forEach((file, i) => {
  lines.push(`import f${i} from "../../client-dist/${file}" with { type: "file" };`);
  entries.push(`  ${JSON.stringify("/" + file)}: { path: f${i}, contentType: ${JSON.stringify(contentType(file))}, bytes: ${statSync(join(servedDir, file)).size} },`);
});
lines.push("", `export const clientVersion = ${JSON.stringify(version)};`, "", "export const clientFiles: Record<string, { path: string; contentType: string; bytes: number }> = {", ...entries, "};", "");
// Written whole, then renamed into place: a process importing it meanwhile reads the old or the new.
writeFileSync(`${genFile}.${process.pid}.tmp`, lines.join("\n"));
renameSync(`${genFile}.${process.pid}.tmp`, genFile);
// Only now, with the module naming the new files, the files of an older build go.
for (const file of stale) rmSync(join(servedDir, file), { force: true });

console.log(`build-client: ${all.length} files, version ${version}, ${Math.round(performance.now() - started)} ms`);

function listFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, prefix + name + "/"));
    else out.push(prefix + name);
  }
  return out;
}

/** gzip at the highest level; the header carries no name or time, so builds stay byte-identical. */
function writeGzip(from: string, to: string): void {
  writeFileSync(to, Bun.gzipSync(readFileSync(from), { level: 9 }));
}

function contentType(file: string): string {
  const name = file.replace(/\.(br|gz)$/, "");
  if (name.endsWith(".html")) return "text/html; charset=utf-8";
  if (name.endsWith(".js")) return "text/javascript; charset=utf-8";
  if (name.endsWith(".css")) return "text/css; charset=utf-8";
  if (name.endsWith(".wasm")) return "application/wasm";
  if (name.endsWith(".svg")) return "image/svg+xml";
  if (name.endsWith(".json")) return "application/json";
  return "application/octet-stream";
}
