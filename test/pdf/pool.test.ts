/**
 * The PDF worker pool with real worker processes: results equal the in-process reader's, a
 * job past its deadline or its memory bound is killed and answers PDF_TOO_COMPLEX while the
 * pool goes on with a fresh worker, the line of waiting jobs is bounded (a job that waited
 * while the readers were starting is told so), and close() leaves no process behind; each
 * owner's budget, the fair line, the reserve, and a reader whose next file is refused at its
 * turn offered the rest of the line at once.
 */
// npm test: alone — its bounds are wall-clock times of the server under its own load, so it runs with nothing beside it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { checkPdfFile } from "../../src/pdf/check.ts";
import { inspectPdf } from "../../src/pdf/open.ts";
import { PdfPool } from "../../src/pdf/worker/pool.ts";
import { makeDeck, makeEncryptedDeck } from "../fixtures/pdfs.ts";
import { HOSTILE_SCALE, objStmRepairBomb } from "../fixtures/hostile-pdfs.ts";
import { concat, mp4Bytes, notesSidecar, writeBytes, writeFixture } from "../fixtures/sidecar-builder.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (17 s).
setDefaultTimeout(180_000);

const MiB = 1024 * 1024;
/**
 * Objects of the repair bomb, which mupdf's repair takes quadratic time over: far past every
 * deadline in this file (8 s the longest); the pool kills it at the deadline, so the size
 * costs no test time. 80,000 ran ~14 s on one machine here but 7.9 s on another (2026-12-01),
 * which then finished it inside the 8 s and answered a deck; 160,000 ran 32 s there (155 MB).
 */
const BOMB_OBJECTS = Math.round(160_000 * Math.max(1, HOSTILE_SCALE));
/** Built once: every deadline test sends the same bomb. */
let bombFile: string | undefined;
const bombPath = () => (bombFile ??= writeBytes(objStmRepairBomb(BOMB_OBJECTS)).path);
/**
 * A one-page PDF whose only attachment is `data`, stored raw, written directly: pdf-lib takes
 * ~2.5 s to save 80 MiB, this a few milliseconds.
 */
function pdfWithRawAttachment(name: string, data: Uint8Array): Uint8Array {
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(${name}) 4 0 R] >> >> >>`,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 720 405] >>",
    `<< /Type /Filespec /F (${name}) /UF (${name}) /EF << /F 5 0 R >> >>`,
  ];
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const offsets: number[] = [];
  const put = (bytes: Uint8Array | string) => {
    const b = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
    chunks.push(b);
    size += b.length;
  };
  put("%PDF-1.7\n");
  objects.forEach((body, i) => {
    offsets.push(size);
    put(`${i + 1} 0 obj\n${body}\nendobj\n`);
  });
  offsets.push(size);
  put(`5 0 obj\n<< /Type /EmbeddedFile /Length ${data.length} >>\nstream\n`);
  put(data);
  put("\nendstream\nendobj\n");
  const xref = size;
  put(`xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`);
  put(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return concat(chunks);
}

const pools: PdfPool[] = [];
function pool(options: ConstructorParameters<typeof PdfPool>[0]): PdfPool {
  const created = new PdfPool(options);
  pools.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; detail: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; detail: string };
  }
  throw new Error("expected the job to fail");
}

describe("PdfPool", () => {
  test("inspect and check answer what the in-process reader answers", async () => {
    const p = pool({ workers: 1 });
    const deck = writeBytes(await makeDeck({ pages: 3 }));
    expect(await p.inspect(deck.path)).toEqual(await inspectPdf(deck.path));
    const fixture = await writeFixture({ pages: 2, attachments: [notesSidecar(2, "Say **hello**")] });
    const meta = { bytes: fixture.bytes, sha256: fixture.sha256 };
    expect(await p.check(fixture.path, meta)).toEqual(await checkPdfFile(fixture.path, meta));
  });

  test("a refused PDF keeps its code and sentence across the process boundary", async () => {
    const p = pool({ workers: 1 });
    const encrypted = writeBytes(await makeEncryptedDeck());
    expect(await failure(p.inspect(encrypted.path))).toMatchObject({ code: "PDF_ENCRYPTED", status: 422 });
    expect(await failure(p.inspect(writeBytes(new TextEncoder().encode("not a pdf")).path))).toMatchObject({ code: "NOT_A_PDF", status: 415 });
  });

  test("a job past its deadline is killed: PDF_TOO_COMPLEX, a fresh worker, the next job answers", async () => {
    const p = pool({ workers: 1, timeoutMs: 500 });
    const deck = writeBytes(await makeDeck({ pages: 2 }));
    await p.inspect(deck.path);
    const [before] = p.stats.pids;
    const error = await failure(p.inspect(bombPath()));
    expect(error).toMatchObject({ code: "PDF_TOO_COMPLEX", status: 422 });
    expect(error.detail).toContain("longer than the 0.5 s");
    // Answered at the deadline, not when mupdf would have finished: the worker that ran it was
    // killed (not left to finish), and a fresh one answers the next job.
    expect(await p.inspect(deck.path)).toMatchObject({ pageCount: 2 });
    expect(p.stats.pids).not.toContain(before!);
    expect(alive(before!)).toBe(false);
  });

  test("a job past its memory bound is killed by the worker's watchdog: PDF_TOO_COMPLEX", async () => {
    const p = pool({ workers: 1, memoryBytes: 150 * MiB });
    // An 80 MiB uncompressed attachment: verifying it holds its raw stream in mupdf's heap.
    const big = writeBytes(pdfWithRawAttachment("media-big.mp4", mp4Bytes(80 * MiB)));
    const error = await failure(p.check(big.path, { bytes: big.bytes, sha256: big.sha256 }));
    expect(error).toMatchObject({ code: "PDF_TOO_COMPLEX", status: 422 });
    expect(error.detail).toContain("150 MB of memory");
    const deck = writeBytes(await makeDeck({ pages: 1 }));
    expect(await p.inspect(deck.path)).toMatchObject({ pageCount: 1 });
  });

  test("the line of waiting jobs is bounded: past it, or past the wait, SERVER_BUSY with Retry-After", async () => {
    const p = pool({ workers: 1, timeoutMs: 1500, maxWaiting: 1, maxWaitMs: 500 });
    const deck = writeBytes(await makeDeck({ pages: 1 }));
    // The worker is up (its start may itself take longer than the 0.5 s wait on a busy
    // machine): then the bomb runs at once and the next jobs wait.
    for (let attempt = 0; ; attempt++) {
      const outcome = await p.inspect(deck.path).then(() => "ok", (error: { code: string }) => error.code);
      if (outcome === "ok") break;
      expect([attempt < 20, outcome]).toEqual([true, "SERVER_BUSY"]);
    }
    const running = failure(p.inspect(bombPath()));
    await waitFor(() => p.stats.running === 1, "the bomb to run");
    const waiting = failure(p.inspect(deck.path));
    const refused = await failure(p.inspect(deck.path));
    expect(refused).toMatchObject({ code: "SERVER_BUSY", status: 503 });
    expect((refused as unknown as { headers: Record<string, string> }).headers["retry-after"]).toBe("5");
    expect(await waiting).toMatchObject({ code: "SERVER_BUSY" });
    expect((await waiting).detail).toContain("within 0.5 s");
    expect(await running).toMatchObject({ code: "PDF_TOO_COMPLEX" });
  });

  test("a job that waits out its wait before any reader has loaded mupdf is told the readers are still starting", async () => {
    // A worker's start (a process, then mupdf's WASM) takes hundreds of milliseconds; the wait is 50.
    const p = pool({ workers: 1, maxWaitMs: 50 });
    const deck = writeBytes(await makeDeck({ pages: 1 }));
    const refused = await failure(p.inspect(deck.path));
    expect(refused).toMatchObject({ code: "SERVER_BUSY", status: 503 });
    expect(refused.detail).toContain("still starting its PDF readers (none was ready within 0.1 s)");
    expect((refused as unknown as { headers: Record<string, string> }).headers["retry-after"]).toBe("5");
    // The reader goes on starting, and then takes the next file at once.
    await waitFor(() => p.stats.ready === 1, "the reader to load mupdf");
    expect(await p.inspect(deck.path)).toMatchObject({ pageCount: 1 });
  });

  test("close() fails the waiting jobs and leaves no worker process behind", async () => {
    const p = pool({ workers: 2 });
    const deck = writeBytes(await makeDeck({ pages: 1 }));
    await Promise.all([p.inspect(deck.path), p.inspect(deck.path)]);
    const pids = p.stats.pids;
    expect(pids.length).toBeGreaterThanOrEqual(1);
    await p.close();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(await failure(p.inspect(deck.path))).toMatchObject({ code: "SERVER_BUSY" });
  });
});

describe("PdfPool: each owner's budget of reading time", () => {
  test("two files past the deadline from one owner spend its budget: 429 PDF_TOO_SLOW with Retry-After for it, others still served", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    const readers = pool({ workers: 1, timeoutMs: 500 });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    for (let i = 0; i < 2; i++) {
      const error = await asPdfOwner("203.0.113.9", () => readers.inspect(bomb)).catch((e: unknown) => e);
      expect((error as { code: string }).code).toBe("PDF_TOO_COMPLEX");
    }
    const refused = (await asPdfOwner("203.0.113.9", () => readers.inspect(good)).catch((e: unknown) => e)) as { code: string; status: number; detail: string; headers?: Record<string, string> };
    expect([refused.code, refused.status]).toEqual(["PDF_TOO_SLOW", 429]);
    // Two deadlines spent, refused until one is back: one deadline a minute.
    expect(Number(refused.headers?.["retry-after"])).toBeGreaterThan(55);
    expect(Number(refused.headers?.["retry-after"])).toBeLessThanOrEqual(60);
    expect(refused.detail).toContain("2 × the 0.5 s one file may take");
    // Another address, and work without a request (the CLI), are not refused.
    expect((await asPdfOwner("198.51.100.1", () => readers.inspect(good))).pageCount).toBe(1);
    expect((await readers.inspect(good)).pageCount).toBe(1);
  }, 60_000);
});

describe("PdfPool: slow files leave a reader to others", () => {
  test("files of new addresses holding both readers past costlyMs: one is stopped for a new address's upload, which the loaded reserve answers before either reaches its deadline; the stopped one runs again after", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    const events: Array<{ event: string; fields?: Record<string, unknown> }> = [];
    const logger = { info: (event: string, fields?: Record<string, unknown>) => events.push({ event, ...(fields ? { fields } : {}) }), error: () => {} };
    const readers = pool({ workers: 2, timeoutMs: 6000, costlyMs: 300, logger });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    // Both readers loaded first, so the bombs start at once.
    await Promise.all([readers.inspect(good), readers.inspect(good)]);
    await waitFor(() => readers.stats.ready >= 2 && readers.stats.running === 0, () => `two idle readers (${JSON.stringify(readers.stats)})`);
    const settled: string[] = [];
    const track = (name: string, p: Promise<unknown>) => p.then(() => settled.push(`${name} ok`), (e: { code: string }) => settled.push(`${name} ${e.code}`));
    const bombs = [track("A", asPdfOwner("203.0.113.1", () => readers.inspect(bomb))), track("B", asPdfOwner("203.0.113.2", () => readers.inspect(bomb)))];
    await waitFor(() => readers.stats.running === 2, "both bombs to run");
    // Costly after 300 ms: a reserve is loaded beside the two (it reads nothing while they do).
    await waitFor(() => readers.stats.ready === 3, () => `the reserve (${JSON.stringify(readers.stats)})`);
    expect(readers.stats.running).toBe(2);
    const newcomer = await asPdfOwner("198.51.100.7", () => readers.inspect(good));
    expect(newcomer.pageCount).toBe(1);
    // Answered while both bombs were still pending: one gave its reader back rather than running to its deadline.
    expect(settled).toEqual([]);
    const yielded = events.filter((e) => e.event === "pdf_job_yielded");
    expect(yielded).toHaveLength(1);
    const stopped = yielded[0]!.fields!.owner === "203.0.113.1" ? "A" : "B";
    // The other runs to its deadline; then the stopped one runs again, alone: the only file left.
    await waitFor(() => settled.length === 1, "the bomb that was not stopped to end", 20_000);
    expect(settled).toEqual([`${stopped === "A" ? "B" : "A"} PDF_TOO_COMPLEX`]);
    await waitFor(() => readers.stats.running === 1 && readers.stats.waiting === 0, "the stopped bomb to run again", 20_000);
    await readers.close();
    await Promise.all(bombs);
    expect(settled[1]).toBe(`${stopped} SERVER_BUSY`);
  }, 60_000);

  test("an address whose file was stopped at the deadline is costly: its files hold one reader at most, the other starts a new address's upload at once", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    const readers = pool({ workers: 2, timeoutMs: 1500, costlyMs: 300, strikeLimit: 10 });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    const slow = "203.0.113.3";
    expect(await failure(asPdfOwner(slow, () => readers.inspect(bomb)))).toMatchObject({ code: "PDF_TOO_COMPLEX" });
    // (A third, the reserve, may be loaded too: a costly owner's file ran.)
    await waitFor(() => readers.stats.workers >= 2 && readers.stats.running === 0, () => `two idle readers (${JSON.stringify(readers.stats)})`);
    const first = failure(asPdfOwner(slow, () => readers.inspect(bomb)));
    const second = failure(asPdfOwner(slow, () => readers.inspect(bomb)));
    await waitFor(() => readers.stats.running === 1 && readers.stats.waiting === 1, "one bomb running, the other waiting");
    // The other reader stays idle for others: a new address's upload is answered while the first bomb runs.
    expect((await asPdfOwner("198.51.100.8", () => readers.inspect(good))).pageCount).toBe(1);
    expect(readers.stats.waiting).toBe(1);
    expect(await first).toMatchObject({ code: "PDF_TOO_COMPLEX" });
    expect(await second).toMatchObject({ code: "PDF_TOO_COMPLEX" });
  }, 60_000);
});

describe("PdfPool: the reserve worker", () => {
  test("while a costly owner's file runs, one more worker is loaded, never running a job beside `workers` others; it goes once the pressure has passed", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    // Costly after 1 s: well past a one-page deck's read even on a machine at load 15 (at 200 ms
    // such a read was costly there, and the reserve came before the bomb did).
    const readers = pool({ workers: 1, timeoutMs: 3000, costlyMs: 1000, reserveKeepMs: 500 });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    await readers.inspect(good);
    expect(readers.stats.workers).toBe(1);
    const running = failure(asPdfOwner("203.0.113.4", () => readers.inspect(bomb)));
    // Costly after 1 s: the reserve is started beside the one worker.
    await waitFor(() => readers.stats.workers === 2, () => `the reserve (${JSON.stringify(readers.stats)})`);
    // Its own file waits rather than run on the reserve (one worker: one job at a time).
    const second = failure(asPdfOwner("203.0.113.4", () => readers.inspect(bomb)));
    await waitFor(() => readers.stats.waiting === 1, "the second file to wait");
    expect(readers.stats.running).toBe(1);
    expect(await running).toMatchObject({ code: "PDF_TOO_COMPLEX" });
    expect(await second).toMatchObject({ code: "PDF_TOO_COMPLEX" });
    // Nothing costly left: half a second later the reserve goes, without a file to prompt it.
    await waitFor(() => readers.stats.workers === 1, () => `the reserve to go (${JSON.stringify(readers.stats)})`);
    expect((await readers.inspect(good)).pageCount).toBe(1);
  }, 60_000);
});

describe("PdfPool: a full line", () => {
  test("a newcomer's file takes the place of the newest waiting file of the address holding most of the line", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    // No owner costly before its file's deadline. At the default costlyMs (1 s, this deadline
    // too) the bomb could also be stopped for the newcomer and run again, spending A's budget
    // before A's waiting file, by whichever timer fires first: the likely cause of A's waiting
    // file failing twice in about 30 runs here (its code was not shown then).
    const readers = pool({ workers: 1, timeoutMs: 1000, maxWaiting: 2, costlyMs: 1e9 });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    const settled = (p: Promise<unknown>) => p.then((v) => ({ ok: true, v }), (e: { code: string }) => ({ ok: false, code: e.code }));
    // A loaded worker first, so that the bomb runs at once and the line holds only the rest.
    await readers.inspect(good);
    const running = settled(asPdfOwner("A", () => readers.inspect(bomb)));
    await waitFor(() => readers.stats.running === 1, "the bomb to run");
    expect(readers.stats.running).toBe(1);
    const waitingA = [settled(asPdfOwner("A", () => readers.inspect(good))), settled(asPdfOwner("A", () => readers.inspect(good)))];
    const newcomer = settled(asPdfOwner("B", () => readers.inspect(good)));
    expect(await waitingA[1]!).toEqual({ ok: false, code: "SERVER_BUSY" });
    // Whole answers, not only `ok`: a failure then shows the code it got.
    expect(await newcomer).toMatchObject({ ok: true, v: { pageCount: 1 } });
    expect(await waitingA[0]!).toMatchObject({ ok: true, v: { pageCount: 1 } });
    expect(await running).toEqual({ ok: false, code: "PDF_TOO_COMPLEX" });
  }, 60_000);
});

describe("PdfPool: a file refused when its turn comes", () => {
  test("its reader is offered the next file at once: the owner's other waiting file is refused and a file that may run starts, in the same turn", async () => {
    const { asPdfOwner } = await import("../../src/pdf/worker/owner.ts");
    // One deadline of budget, refused below half of it; no owner costly, so only the budget decides.
    const readers = pool({ workers: 2, timeoutMs: 8000, strikeLimit: 1, costlyMs: 1e9 });
    const bomb = bombPath();
    const good = writeBytes(await makeDeck({ pages: 1 })).path;
    await Promise.all([readers.inspect(good), readers.inspect(good)]);
    await waitFor(() => readers.stats.ready === 2 && readers.stats.running === 0, () => `two idle readers (${JSON.stringify(readers.stats)})`);
    // Work without a request (never refused) takes the first reader, an address's slow file the
    // other half a second later: the local work has always spent more, so it comes after.
    const local = failure(readers.inspect(bomb));
    await waitFor(() => readers.stats.running === 1, "the local file to run");
    await Bun.sleep(500);
    let slowSettled = false;
    const slow = failure(asPdfOwner("203.0.113.20", () => readers.inspect(bomb))).finally(() => (slowSettled = true));
    await waitFor(() => readers.stats.running === 2, "the address's slow file to run");
    const slowStarted = performance.now();
    let atRefusal: { stats: typeof readers.stats; slowSettled: boolean } | null = null;
    const second = asPdfOwner("203.0.113.20", () => readers.inspect(good)).then(
      () => "ok",
      (error: { code: string }) => {
        atRefusal = { stats: readers.stats, slowSettled };
        return error.code;
      },
    );
    const third = failure(asPdfOwner("203.0.113.20", () => readers.inspect(good)));
    const localGood = readers.inspect(good).then((r) => r.pageCount, (error: { code: string }) => error.code);
    await waitFor(() => readers.stats.waiting === 3, "three files waiting");
    // The running slow file has now spent more than half the address's budget (4 s of 8 s).
    await Bun.sleep(Math.max(0, 4600 - (performance.now() - slowStarted)));
    // The local file's reader goes (not at a bound: charged only its time): the line's turn comes.
    process.kill(readers.stats.pids[0]!, "SIGTERM");
    expect(await local).toMatchObject({ code: "INTERNAL" });
    expect(await second).toBe("PDF_TOO_SLOW");
    // Refused at its turn while the slow file still ran (not by that file's end) — and in that
    // same turn the reader went on down the line: the address's other file refused, the local one started.
    expect(atRefusal).toMatchObject({ slowSettled: false, stats: { waiting: 0, running: 2 } });
    expect(await third).toMatchObject({ code: "PDF_TOO_SLOW" });
    expect(await localGood).toBe(1);
    expect(await slow).toMatchObject({ code: "PDF_TOO_COMPLEX" });
  }, 60_000);
});
