/**
 * A data directory that already existed with 0755 kept it, so other
 * local users could read the staged talks. `deckhand serve` now tightens it to 0700 at start-up
 * (and logs that it did).
 */
import { expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../../src/base/config.ts";
import { startServer } from "../../src/server.ts";
import { testPdfReader } from "../helpers/app.ts";
import { tightenDataDir } from "../../src/store/permissions.ts";

test("an existing 0755 data directory is 0700 once the server has started, and the log says so", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-perm-"));
  chmodSync(dataDir, 0o755);
  const lines: string[] = [];
  const logger = { info: () => {}, error: (event: string, fields?: Record<string, unknown>) => void lines.push(`${event} ${JSON.stringify(fields)}`) };
  const running = await startServer(testConfig({ dataDir, port: 0, host: "127.0.0.1" }), { logger, pdf: testPdfReader() });
  try {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(lines.some((l) => l.startsWith("data_dir_tightened") && l.includes('"from":"0755"'))).toBe(true);
  } finally {
    await running.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test("an owner-only directory is left as it is, with no log line", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-perm-"));
  chmodSync(dataDir, 0o700);
  const events: string[] = [];
  expect(tightenDataDir(dataDir, (event) => events.push(event))).toBeNull();
  expect(events).toEqual([]);
  rmSync(dataDir, { recursive: true, force: true });
});
