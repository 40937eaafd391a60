/**
 * @module scripts/docs-figures
 * Measures the figures the docs quote and rewrites them between their markers, so no size in
 * docs/ is typed by hand: the binary-size table of docs/development/release.md (what each part
 * adds to deckhand-linux-x64) and the sizes in docs/operating/install.md's table of
 * platforms. Run it after `npm run release` (it reads dist/release/ and client-dist/):
 *
 *   npm run release && bun run scripts/docs-figures.ts [--release dist/release]
 *
 * test/docs/figures.test.ts fails when the documented linux-x64 size is off the built
 * binary by more than 1%.
 *
 * It also counts the test files for docs/development/tests.md (how many there are, how many
 * `npm run test:unit` runs, how many are browser suites); that needs no release, so
 * `bun run scripts/docs-figures.ts --tests-only` rewrites just those, and
 * test/docs/test-counts.test.ts fails when they drift.
 */
import { Glob } from "bun";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildInfo } from "./build-info.ts";
import { compile } from "./compile.ts";
import { TARGETS } from "./release/targets.ts";

const root = join(import.meta.dir, "..");
export const RELEASE_DOC = join(root, "docs", "development", "release.md");
export const INSTALL_DOC = join(root, "docs", "operating", "install.md");
export const TESTS_DOC = join(root, "docs", "development", "tests.md");

/** The text between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->` replaced by `body`. */
export function replaceBetweenMarkers(doc: string, name: string, body: string): string {
  const start = `<!-- figures:${name} -->`;
  const end = `<!-- /figures:${name} -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${start} … ${end} block`);
  return `${doc.slice(0, from + start.length)}\n${body.trimEnd()}\n${doc.slice(to)}`;
}

/** The text between the markers (without them), or null when the block is missing. */
function betweenMarkers(doc: string, name: string): string | null {
  const start = `<!-- figures:${name} -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(`<!-- /figures:${name} -->`);
  return from < 0 || to < from ? null : doc.slice(from + start.length, to).trim();
}

/** How many test files there are, how many `npm run test:unit` runs, how many are browser suites. */
export interface TestFileCounts {
  all: number;
  unit: number;
  e2e: number;
}

/** The counts of the test files as they are now: the unit ones as scripts/test-unit.ts lists them. */
export function testFileCounts(): TestFileCounts {
  const all = [...new Glob("test/**/*.test.ts").scanSync({ cwd: root })];
  const list = Bun.spawnSync([process.execPath, "run", join(root, "scripts", "test-unit.ts"), "--list"], { cwd: root });
  if (list.exitCode !== 0) throw new Error(`scripts/test-unit.ts --list failed: ${list.stderr.toString()}`);
  const unit = list.stdout.toString().split("\n").filter((line) => line.trim().endsWith(".test.ts")).length;
  return { all: all.length, unit, e2e: all.filter((file) => file.endsWith(".e2e.test.ts")).length };
}

/** The sentence tests.md carries between its `test-files` markers. */
export function testFilesSentence(counts: TestFileCounts): string {
  return `There are ${counts.all} test files: \`npm run test:unit\` runs ${counts.unit} of them, ${counts.e2e} are browser suites (\`test/e2e/\`), and the others need the binary, a server process or a system service (\`npm run test:unit -- --left-out\` says which and why).`;
}

/** The sentence tests.md carries now, or null when its markers are missing. */
export function documentedTestFiles(testsDoc: string): string | null {
  return betweenMarkers(testsDoc, "test-files");
}

/** Bytes with thousands separators, as the tables print them. */
const bytes = (n: number) => n.toLocaleString("en-US");
/** 1 MB = 10⁶ bytes, one decimal, as install.md says. */
export const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The human names install.md gives each release target. */
const PLATFORM_NAMES: Record<string, string> = {
  "linux-x64": "Linux x86-64",
  "linux-arm64": "Linux ARM64 (Raspberry Pi 4/5, Graviton)",
  "darwin-arm64": "macOS Apple silicon",
  "darwin-x64": "macOS Intel",
  "windows-x64": "Windows x86-64 (10 and 11)",
};

/** install.md's row for `platform`: its binary size in bytes as documented (MB × 10⁶). */
export function documentedBinaryBytes(installDoc: string, platform: string): number | null {
  const table = betweenMarkers(installDoc, "install") ?? "";
  const row = table.split("\n").find((line) => line.startsWith(`| ${PLATFORM_NAMES[platform]} |`));
  const size = row?.split("|")[4]?.trim().match(/^([\d.]+) MB$/);
  return size ? Number(size[1]) * 1e6 : null;
}

/** release.md's total for deckhand-linux-x64, in bytes. */
export function documentedLinuxTotal(releaseDoc: string): number | null {
  const match = (betweenMarkers(releaseDoc, "binary-size") ?? "").match(/\*\*deckhand-linux-x64\*\* \| \*\*([\d,]+)\*\*/);
  return match ? Number(match[1]!.replaceAll(",", "")) : null;
}

function fileSizes(dir: string, prefix = ""): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) for (const [file, size] of fileSizes(full, `${prefix}${name}/`)) sizes.set(file, size);
    else sizes.set(prefix + name, statSync(full).size);
  }
  return sizes;
}

/** The size of a compiled `console.log(1)`: the Bun runtime every binary carries whole. */
async function runtimeBytes(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-figures-"));
  try {
    writeFileSync(join(dir, "one.ts"), "console.log(1);\n");
    const outfile = join(dir, "one");
    const result = await Bun.build({ entrypoints: [join(dir, "one.ts")], compile: { outfile, target: "bun-linux-x64" } });
    if (!result.success) throw new AggregateError(result.logs, "compiling console.log(1) failed");
    return statSync(outfile).size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The precompiled bytecode: the binary less the same build compiled without bytecode (Bun
 * writes ESM bytecode only into a compiled executable, so it cannot be weighed on its own).
 */
async function bytecodeBytes(total: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-figures-"));
  try {
    const outfile = join(dir, "deckhand");
    await compile({ outfile, target: "bun-linux-x64", info: buildInfo(), bytecode: false });
    return total - statSync(outfile).size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Parts {
  runtime: number;
  wasm: number;
  bytecode: number;
  scalar: number;
  client: number;
  total: number;
}

function binarySizeTable(parts: Parts): string {
  const server = parts.total - parts.runtime - parts.wasm - parts.bytecode - parts.scalar - parts.client;
  return [
    "| part | bytes |",
    "|---|---|",
    `| Bun runtime (a compiled \`console.log(1)\`) | ${bytes(parts.runtime)} |`,
    `| mupdf's WASM, embedded once, gzip | ${bytes(parts.wasm)} |`,
    `| precompiled bytecode of the bundles | ${bytes(parts.bytecode)} |`,
    // What is left of the total: the bundle's source (Bun keeps it beside the bytecode), the schemas.
    `| the bundles: one per command and the PDF worker, each with the modules it shares with others (Elysia, MCP SDK, zod, TypeBox, ajv, mupdf's JS, …; src/binary/commands.ts) | ≈${bytes(Math.round(server / 1e4) * 1e4)} |`,
    `| API docs' script (Scalar), gzip | ${bytes(parts.scalar)} |`,
    `| the rest of the browser client (pages, bundles, mupdf's JS, service worker) | ${bytes(parts.client)} |`,
    `| **deckhand-linux-x64** | **${bytes(parts.total)}** |`,
  ].join("\n");
}

function installTable(sizes: Map<string, number>, stamp: string): string {
  const rows = TARGETS.map((t) => {
    const binary = sizes.get(t.binary);
    const archive = sizes.get(t.archive);
    if (binary === undefined || archive === undefined) throw new Error(`${t.binary} or ${t.archive} missing: run \`npm run release\` first`);
    return `| ${PLATFORM_NAMES[t.name]} | \`${t.binary}\` | \`${t.archive}\` | ${megabytes(binary)} | ${megabytes(archive)} |`;
  });
  return ["| platform | binary | archive | binary size | archive size |", "|---|---|---|---|---|", ...rows, "", `(Measured ${stamp}, archives at level 9; 1 MB = 10⁶ bytes.)`].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Bun.argv.slice(2), options: { release: { type: "string" }, "tests-only": { type: "boolean" } } });
  const counts = testFileCounts();
  writeFileSync(TESTS_DOC, replaceBetweenMarkers(readFileSync(TESTS_DOC, "utf8"), "test-files", testFilesSentence(counts)));
  console.log(`docs-figures: ${TESTS_DOC} rewritten (${counts.all} test files, ${counts.unit} unit)`);
  if (values["tests-only"]) process.exit(0);
  const releaseDir = resolve(values.release ?? join(root, "dist", "release"));
  const sizes = new Map(TARGETS.flatMap((t) => [t.binary, t.archive]).flatMap((name) => {
    try {
      return [[name, statSync(join(releaseDir, name)).size] as const];
    } catch {
      return [];
    }
  }));
  const client = fileSizes(join(root, "client-dist"));
  const pick = (test: (file: string) => boolean) => [...client].filter(([file]) => test(file)).reduce((sum, [, size]) => sum + size, 0);
  const isWasm = (file: string) => file.endsWith("mupdf-wasm.wasm.gz");
  const isScalar = (file: string) => file === "docs/scalar.js.gz";
  const total = sizes.get("deckhand-linux-x64");
  if (total === undefined) throw new Error(`${releaseDir}/deckhand-linux-x64 missing: run \`npm run release\` first`);
  const parts: Parts = {
    runtime: await runtimeBytes(),
    wasm: pick(isWasm),
    bytecode: await bytecodeBytes(total),
    scalar: pick(isScalar),
    client: pick((file) => !isWasm(file) && !isScalar(file)),
    total,
  };
  const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: root }).stdout.toString().trim();
  const stamp = `on ${new Date().toISOString().slice(0, 10)} from \`npm run release\` of commit ${commit} (bun ${Bun.version})`;
  writeFileSync(RELEASE_DOC, replaceBetweenMarkers(readFileSync(RELEASE_DOC, "utf8"), "binary-size", `${binarySizeTable(parts)}\n\n(Measured ${stamp} by \`scripts/docs-figures.ts\`.)`));
  writeFileSync(INSTALL_DOC, replaceBetweenMarkers(readFileSync(INSTALL_DOC, "utf8"), "install", installTable(sizes, stamp)));
  console.log(`docs-figures: ${RELEASE_DOC} and ${INSTALL_DOC} rewritten (deckhand-linux-x64 ${bytes(total)} bytes)`);
}
