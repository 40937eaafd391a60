/**
 * Crash safety of the compiled binary (`dist/deckhand`, built by `npm test`): a `kill -9`
 * in the middle of a streamed upload leaves nothing after a restart, and a `kill -9` right
 * after present answered keeps the handoff whole and claimable.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import type { HandoffRecord } from "../src/shared/handoff-record.ts";
import { makeDeck } from "./fixtures/pdfs.ts";
import { BINARY, type BinaryServer, scratch } from "./helpers/server.ts";
import { waitFor } from "./helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.1 s), and at least 120 s as each test starts the binary twice
// (each start may take 45 s, test/helpers/server.ts); on CI, yielding to the browser lanes, a test took 21 s of the 30 s this was.
setDefaultTimeout(120_000);

/** Size of the deck sent slowly: several chunks, so the crash lands mid-body. */
const SLOW_DECK_BYTES = 2 * 1024 * 1024;
/** Bytes per chunk of the slow upload. */
const CHUNK_BYTES = 64 * 1024;
/** Bound on every wait in this file (the upload's temp file, a log line): for what never comes, yielding to the browser lanes. */
const WAIT_MS = 30_000;

const suite = scratch();
const tempDir = suite.dir;

/** Start the binary on `dataDir`; the caller owns both directories, so a crash keeps the data. */
const start = (dataDir: string): Promise<BinaryServer> => suite.start({ dataDir, cwd: tempDir("deckhand-crash-cwd-") });

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun run scripts/build.ts\` first (npm test does).`);
});

afterEach(() => suite.cleanup());

const stagedEntries = (dataDir: string) => readdirSync(join(dataDir, "staged"));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function sessionRows(dataDir: string): { id: string; state: string }[] {
  const db = new Database(join(dataDir, "deckhand.db"), { readonly: true });
  try {
    return db.query<{ id: string; state: string }, []>("SELECT id, state FROM sessions").all();
  } finally {
    db.close();
  }
}

/** The parts of a multipart/form-data body around the bytes of its `file` part. */
function multipart(filename: string): { boundary: string; head: Buffer; tail: Buffer } {
  const boundary = `----deckhand-crash-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { boundary, head, tail };
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.once("error", reject);
  });
}

function write(socket: Socket, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => socket.write(bytes, (error) => (error ? reject(error) : resolve())));
}

async function present(server: BinaryServer, pdf: Uint8Array): Promise<HandoffRecord & { token: string }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "crash.pdf");
  const res = await fetch(`${server.url}/api/present`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  const record = (await res.json()) as HandoffRecord;
  return { ...record, token: new URL(record.url).hash.replace(/^#t=/, "") };
}

describe("kill -9 during a slow streamed upload", () => {
  test("after a restart there is no temp file, no staged file and no row", async () => {
    const dataDir = tempDir("deckhand-crash-data-");
    const pdf = await makeDeck({ pages: 3, padToBytes: SLOW_DECK_BYTES });
    const first = await start(dataDir);

    const { boundary, head, tail } = multipart("slow.pdf");
    const socket = await openSocket(first.port);
    socket.on("error", () => {}); // the server dies under it
    await write(
      socket,
      Buffer.from(
        `POST /api/present HTTP/1.1\r\nHost: 127.0.0.1:${first.port}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Content-Length: ${head.length + pdf.length + tail.length}\r\n\r\n`,
      ),
    );
    await write(socket, head);
    // Send about half of the PDF, a chunk at a time with pauses, as a slow network would.
    const half = Math.floor(pdf.length / 2);
    for (let offset = 0; offset < half; offset += CHUNK_BYTES) {
      await write(socket, pdf.subarray(offset, Math.min(offset + CHUNK_BYTES, half)));
      await Bun.sleep(5); // the slow network under test, not a wait for the server
    }
    // The server is mid-upload: it has a temp file, and nothing else.
    await waitFor(() => stagedEntries(dataDir).some((name) => name.endsWith(".tmp")), "the upload's temp file", WAIT_MS);
    expect(stagedEntries(dataDir).filter((name) => !name.endsWith(".tmp"))).toEqual([]);

    await first.kill9();
    socket.destroy();
    expect(stagedEntries(dataDir).some((name) => name.endsWith(".tmp"))).toBe(true);

    const second = await start(dataDir);
    expect(stagedEntries(dataDir)).toEqual([]);
    expect(sessionRows(dataDir)).toEqual([]);
    // And the restarted server works normally on the same data dir.
    const record = await present(second, pdf);
    expect(record.sha256).toBe(sha256(pdf));
    await waitFor(() => /"event":"sweep".*"removedTemps":1/.test(second.logs()), "the start-up sweep's log line", WAIT_MS);
    expect(await second.stop()).toBe(0);
  });
});

describe("kill -9 right after present answered 200", () => {
  test("after a restart the handoff is still there and claimable with identical bytes", async () => {
    const dataDir = tempDir("deckhand-crash-data-");
    const pdf = await makeDeck({ pages: 5, padToBytes: 512 * 1024 });
    const first = await start(dataDir);
    const record = await present(first, pdf);
    await first.kill9();

    const second = await start(dataDir);
    expect(sessionRows(dataDir)).toEqual([{ id: record.id, state: "staged" }]);
    expect(stagedEntries(dataDir)).toEqual([`${record.id}.pdf`]);

    const download = await fetch(`${second.url}/api/sessions/${record.id}/handoff?t=${encodeURIComponent(record.token)}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-length")).toBe(String(pdf.length));
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.length).toBe(pdf.length);
    expect(sha256(bytes)).toBe(sha256(pdf));
    expect(record.sha256).toBe(sha256(pdf));

    const complete = await fetch(`${second.url}/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": record.token, "content-type": "application/json" },
      body: JSON.stringify({ sha256: sha256(bytes) }),
    });
    expect(complete.status).toBe(200);
    expect(await complete.json()).toMatchObject({ ok: true });
    expect(stagedEntries(dataDir)).toEqual([]);
    expect(sessionRows(dataDir)).toEqual([{ id: record.id, state: "claimed" }]);
    expect(await second.stop()).toBe(0);
  });
});
