/**
 * The CLI's in-process PDF reader (pdf/in-process): the same reports as the server's worker
 * pool, and the pool's bounds kept in-process — a file past the deadline or the memory bound
 * ends `deckhand check` with exit 2 and the pool's PDF_TOO_COMPLEX problem, after whatever
 * the earlier files printed, with a JSON array still closed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { deadlineProblem, memoryProblem } from "../../src/pdf/bounds.ts";
import { InProcessPdfReader } from "../../src/pdf/in-process.ts";
import { objStmRepairBomb } from "../fixtures/hostile-pdfs.ts";
import { mediaSidecar, notesSidecar, pdfpcFile, pollSidecar, writeBytes, writeFixture } from "../fixtures/sidecar-builder.ts";
import { testPdfReader } from "../helpers/app.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine.
setDefaultTimeout(120_000);

/** Objects of the repair bomb: 80,000 run ~14 s here, far behind every deadline below. */
const BOMB_OBJECTS = 80_000;
/** Deadline of the bounded runs: far above a small deck's check, far below the bomb's repair. */
const TIMEOUT_MS = 1_500;

// Loose bounds here: past them the whole test process would end (the bounds are tested below, in a process of their own).
const reader = new InProcessPdfReader({ memoryBytes: 0, timeoutMs: 120_000 });
afterAll(() => reader.close());

/** `deckhand check` in its own process (test/helpers/check-command.ts) with the bounds given. */
async function runChild(args: string[], limits: { timeoutMs?: number; memoryBytes?: number }) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "helpers", "check-command.ts"), ...args], {
    env: { ...process.env, DECKHAND_TEST_CHECK_LIMITS: JSON.stringify(limits) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("in-process PDF reader", () => {
  test("gives the pool's report, file for file", async () => {
    const decks = [
      await writeFixture({ pages: 4, attachments: [notesSidecar(2, "Say **hello**"), mediaSidecar(3, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" }), pollSidecar(4), pdfpcFile({ pdfpcFormat: 2, duration: 20, pages: [] })] }),
      await writeFixture({ pages: 2, attachments: [notesSidecar(5, "out of range"), { name: "readme.txt", data: "hi" }] }),
    ];
    for (const deck of decks) {
      const meta = { bytes: deck.bytes, sha256: deck.sha256 };
      const own = await reader.check(deck.path, meta);
      expectValidReport(own);
      // The pool's report crossed a process as JSON: compare as JSON.
      expect(JSON.parse(JSON.stringify(own))).toEqual(await testPdfReader().check(deck.path, meta));
      expect(await reader.checkJson(deck.path, meta)).toBe(await testPdfReader().checkJson(deck.path, meta));
      expect(await reader.inspect(deck.path)).toEqual(await testPdfReader().inspect(deck.path));
    }
  });

  test("refuses what the pool refuses, with the same problem", async () => {
    const text = writeBytes(new TextEncoder().encode("hello, I am text"));
    const [own, pool] = await Promise.all([reader.check(text.path, { bytes: 16, sha256: "0".repeat(64) }).catch((e) => e), testPdfReader().check(text.path, { bytes: 16, sha256: "0".repeat(64) }).catch((e) => e)]);
    expect(own.code).toBe("NOT_A_PDF");
    expect(own.code).toBe(pool.code);
    expect(own.detail).toBe(pool.detail);
  });
});

describe("deckhand check keeps the pool's bounds in-process", () => {
  let bomb: string;
  let deck: { path: string };
  beforeAll(async () => {
    bomb = writeBytes(objStmRepairBomb(BOMB_OBJECTS), "bomb.pdf").path;
    deck = await writeFixture({ pages: 2, attachments: [notesSidecar(1, "hi")] });
  });

  test("a file past the deadline ends the run: exit 2, the pool's PDF_TOO_COMPLEX, later files named as not checked", async () => {
    const problem = deadlineProblem(TIMEOUT_MS);

    const one = await runChild(["--json", bomb], { timeoutMs: TIMEOUT_MS });
    expect(one.code).toBe(2);
    expect(JSON.parse(one.out)).toEqual(problem.toProblem());
    expect(one.err).toBe(`deckhand check: ${bomb}: ${problem.detail}\n`);

    const many = await runChild(["--json", deck.path, bomb, deck.path], { timeoutMs: TIMEOUT_MS });
    expect(many.code).toBe(2);
    const entries = JSON.parse(many.out);
    expect(entries).toHaveLength(2);
    expect(entries[0].file).toBe(deck.path);
    expectValidReport(entries[0].report);
    expect(entries[1]).toEqual({ file: bomb, problem: problem.toProblem() });
    expect(many.err).toContain(`deckhand check: stopped at ${bomb}; not checked: ${deck.path}\n`);

    const text = await runChild([deck.path, bomb], { timeoutMs: TIMEOUT_MS });
    expect(text.code).toBe(2);
    expect(text.out).toContain(`${deck.path}: 2 pages, 1 attachment`);
    expect(text.out).toEndWith(`\n${bomb}: not checked (PDF_TOO_COMPLEX)\n\n2 files: 1 valid, 0 invalid, 1 not checked.\n`);
  });

  test("a process past the memory bound ends the run with the pool's memory problem", async () => {
    // Below what mupdf alone takes: the first file passes it.
    const memoryBytes = 32 * 1024 * 1024;
    const run = await runChild(["--json", deck.path], { memoryBytes });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.out)).toEqual(memoryProblem(memoryBytes).toProblem());
  });
});
