/**
 * @module scripts/release
 * `npm run release`: every platform's binary in dist/release/ (deckhand-linux-x64,
 * deckhand-linux-arm64, deckhand-darwin-arm64, deckhand-darwin-x64,
 * deckhand-windows-x64.exe), each packed for download (.tar.gz, Windows .zip), and
 * SHA256SUMS over all of them. Each binary is checked before it is packed: the right
 * executable format and CPU, and every embedded file inside (scripts/release/embedded.ts).
 * Bun fetches the other platforms' runtimes from the npm registry on first use.
 *
 *   bun run scripts/release.ts [--targets linux-x64,linux-arm64] [--out dist/release] [--level 9]
 *
 * Needs GNU tar, gzip and zip (Debian: tar gzip zip).
 */
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildInfo } from "./build-info.ts";
import { buildClient } from "./build-client-run.ts";
import { compile } from "./compile.ts";
import { packBinary } from "./release/archive.ts";
import { embeddedMarkers, missingMarkers } from "./release/embedded.ts";
import { executableKind } from "./release/executable.ts";
import { selectTargets, TARGETS } from "./release/targets.ts";

const root = join(import.meta.dir, "..");
const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { targets: { type: "string" }, out: { type: "string" }, level: { type: "string" } },
});
const targets = selectTargets(values.targets);
const out = resolve(values.out ?? join(root, "dist", "release"));
const level = Number(values.level ?? 9);
if (!Number.isInteger(level) || level < 1 || level > 9) throw new Error(`--level must be 1 to 9, got ${values.level}`);
/** Archives packed at once: gzip and zip use one core each; CI machines have two. */
const PACK_PARALLEL = 2;

const started = performance.now();
buildClient();
const info = buildInfo();
const markers = embeddedMarkers(root, info.commit);

// Remove only what a release writes, never a whole directory a user pointed --out at.
mkdirSync(out, { recursive: true });
for (const t of TARGETS) for (const name of [t.binary, t.archive]) rmSync(join(out, name), { force: true });
rmSync(join(out, "SHA256SUMS"), { force: true });

for (const t of targets) {
  const binary = join(out, t.binary);
  const at = performance.now();
  await compile({ outfile: binary, target: t.bunTarget, info });
  const bytes = readFileSync(binary);
  const kind = executableKind(bytes.subarray(0, 4096));
  if (kind?.format !== t.format || kind.arch !== t.arch) {
    throw new Error(`${t.binary} is ${kind ? `${kind.format} ${kind.arch}` : "not an executable"}, expected ${t.format} ${t.arch}`);
  }
  const missing = missingMarkers(bytes, markers);
  if (missing.length > 0) throw new Error(`${t.binary} lacks embedded files: ${missing.join(", ")}`);
  console.log(`release: ${t.binary} (${kind.format} ${kind.arch}, ${markers.length} embedded files checked) in ${Math.round(performance.now() - at)} ms`);
}

const queue = [...targets];
await Promise.all(
  Array.from({ length: PACK_PARALLEL }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const at = performance.now();
      await packBinary({ binary: join(out, t.binary), inArchive: t.inArchive, archive: join(out, t.archive), level, sourceDateEpoch: info.sourceDateEpoch });
      console.log(`release: ${t.archive} (level ${level}) in ${Math.round(performance.now() - at)} ms`);
    }
  }),
);

const artefacts = targets.flatMap((t) => [t.binary, t.archive]).sort();
const summing = performance.now();
const sums: string[] = [];
for (const name of artefacts) {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(join(out, name)).stream()) hasher.update(chunk);
  // Two spaces: the text-mode format `sha256sum -c` and `shasum -a 256 -c` read.
  sums.push(`${hasher.digest("hex")}  ${name}`);
}
await Bun.write(join(out, "SHA256SUMS"), `${sums.join("\n")}\n`);
console.log(`release: SHA256SUMS over ${artefacts.length} files in ${Math.round(performance.now() - summing)} ms`);

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
for (const name of artefacts) console.log(`  ${name.padEnd(32)} ${String(statSync(join(out, name)).size).padStart(11)} bytes  ${mb(statSync(join(out, name)).size)}`);
console.log(`release: deckhand ${info.version} (commit ${info.commit}) → ${out}/ in ${Math.round((performance.now() - started) / 1000)} s`);
