/**
 * The binary's life around the requests: shutdown with a trickling upload in flight (a
 * deadline, not a 120 s wait), owner-only permissions in the data directory, one-line start-up
 * errors, and `deckhand check --json` through a pipe.
 */
// npm test: foreground — its bounds are wall-clock times of the server under its own load; it mostly waits (a trickling upload at shutdown, a deadline), so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { notesSidecar, writeFixture } from "../fixtures/sidecar-builder.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { trickleUpload } from "../helpers/raw-http.ts";
import { BINARY, scratch } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (11 s).
setDefaultTimeout(120_000);

const space = scratch();
afterAll(() => space.cleanup());

describe("shutdown", () => {
  test("SIGTERM with a trickling upload in flight: exit within the 10 s deadline, no temp file left", async () => {
    const server = await space.start({});
    // 1 KB every 200 ms: above the slowest rate the server keeps an upload for (2 KB/s), so
    // only the shutdown's deadline can end it — a slower trickle is cut by the rate rule at the
    // same 10 s, and the race decides which ends it.
    const trickle = trickleUpload(server.port, "/api/present", { intervalMs: 200, bytesPerTick: 1024 });
    const staged = () => readdirSync(join(server.dataDir, "staged"));
    await waitFor(() => staged().some((n) => n.endsWith(".tmp")), "the upload's temp file");
    expect(staged().some((n) => n.endsWith(".tmp"))).toBe(true);
    const started = performance.now();
    expect(await server.stop()).toBe(0);
    const took = performance.now() - started;
    trickle.stop();
    expect(took).toBeGreaterThan(9_000);
    expect(took).toBeLessThan(14_000);
    expect(server.logs()).toContain('"event":"shutdown_forced"');
    expect(staged().filter((n) => n.endsWith(".tmp"))).toEqual([]);
  }, 30_000);

  test("with nothing in flight, shutdown is immediate", async () => {
    const server = await space.start({});
    const started = performance.now();
    expect(await server.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(server.logs()).not.toContain("shutdown_forced");
  });
});

describe("the data directory is owner-only", () => {
  test("directories 0700, files 0600, whatever the umask of the caller", async () => {
    const dataDir = join(space.dir("deckhand-perm-"), "data");
    const server = await space.start({ dataDir, wrap: ["sh", "-c", 'umask 022 && exec "$@"', "sh"] });
    const form = new FormData();
    form.append("file", new Blob([(await makeDeck({ pages: 1 })) as BlobPart], { type: "application/pdf" }), "talk.pdf");
    expect((await fetch(`${server.url}/api/present`, { method: "POST", body: form })).status).toBe(200);
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect(mode(dataDir)).toBe("700");
    expect(mode(join(dataDir, "staged"))).toBe("700");
    for (const name of readdirSync(dataDir).filter((n) => n !== "staged")) expect([name, mode(join(dataDir, name))]).toEqual([name, "600"]);
    for (const name of readdirSync(join(dataDir, "staged"))) expect([name, mode(join(dataDir, "staged", name))]).toEqual([name, "600"]);
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(["deckhand.db", "deckhand.lock"]));
  });
});

describe("start-up errors are one line", () => {
  test("a missing TLS file", () => {
    const dir = space.dir("deckhand-tls-");
    const result = Bun.spawnSync([BINARY, "serve", "--port", "0", "--data-dir", join(dir, "data"), "--tls-cert", join(dir, "nope.pem"), "--tls-key", join(dir, "nope.key")], { stderr: "pipe", stdout: "pipe" });
    expect(result.exitCode).toBe(2);
    const stderr = result.stderr.toString();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("--tls-cert");
    expect(stderr).toContain("no such file");
  });

  test("a TLS file that is not a certificate", () => {
    const dir = space.dir("deckhand-tls-");
    writeFileSync(join(dir, "bad.pem"), "not a certificate");
    const result = Bun.spawnSync([BINARY, "serve", "--port", "0", "--data-dir", join(dir, "data"), "--tls-cert", join(dir, "bad.pem"), "--tls-key", join(dir, "bad.pem")], { stderr: "pipe", stdout: "pipe" });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.toString().trim().split("\n")).toHaveLength(1);
    expect(result.stderr.toString()).toContain("TLS certificate or key cannot be used");
  });
});

describe("deckhand check --json through a pipe", () => {
  test("prints the whole report (no cut at 64 KiB) and exits with the verdict", async () => {
    const fixture = await writeFixture({ pages: 40, attachments: Array.from({ length: 40 }, (_, i) => notesSidecar(i + 1, "word ".repeat(2000))) });
    // stdout is a pipe read by another process, slowly: what `deckhand check --json | jq` does.
    const proc = Bun.spawn(["bash", "-o", "pipefail", "-c", `"${BINARY}" check --json "${fixture.path}" | (sleep 0.5; cat)`], { stdout: "pipe", stderr: "pipe" });
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(text.length).toBeGreaterThan(400_000);
    const report = JSON.parse(text) as { ok: boolean; pageCount: number };
    expect([report.ok, report.pageCount]).toEqual([true, 40]);
  });
});
