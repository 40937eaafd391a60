/**
 * The MCP check's PDF sources share the upload code: base64 bytes are staged and hashed by
 * receiveBytes, a local path is hashed by the one streaming digestFile.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckReport } from "../../src/deck/check-report.gen.ts";
import { checkPdfSource } from "../../src/mcp/check-source.ts";
import { digestFile } from "../../src/upload/digest.ts";
import { makeDeck } from "../fixtures/pdfs.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3 s).
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "deckhand-check-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("checkPdfSource", () => {
  test("bytes and path report the same size and SHA-256 as digestFile; the temp file is gone afterwards", async () => {
    const deck = await makeDeck({ pages: 2, padToBytes: 3 * 1024 * 1024 });
    const path = join(dir, "deck.pdf");
    writeFileSync(path, deck);
    const expected = { bytes: deck.length, sha256: createHash("sha256").update(deck).digest("hex") };
    expect(await digestFile(path)).toEqual(expected);

    const seen: Array<{ path: string; meta: unknown; existed: boolean }> = [];
    let temps = 0;
    const options = {
      maxBytes: 10 * 1024 * 1024,
      createTemp: () => {
        const temp = join(dir, `temp-${++temps}.pdf`);
        return { path: temp, discard: async () => rmSync(temp, { force: true }) };
      },
      checkFile: async (file: string, meta: { bytes: number; sha256: string }) => {
        seen.push({ path: file, meta, existed: existsSync(file) });
        return {} as CheckReport;
      },
    };
    await checkPdfSource({ kind: "bytes", bytes: Buffer.from(deck) }, options);
    await checkPdfSource({ kind: "path", path }, options);
    expect(seen.map((s) => s.meta)).toEqual([expected, expected]);
    expect(seen.map((s) => s.existed)).toEqual([true, true]);
    expect(seen[1]!.path).toBe(path);
    expect(existsSync(seen[0]!.path)).toBe(false);
  });
});
