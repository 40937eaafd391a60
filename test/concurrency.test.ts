/**
 * Concurrency through a real listening server (Bun.serve on 127.0.0.1, in this process so the
 * test can watch the blob store): many completes on one session claim it exactly once, and
 * downloads racing a complete get either the whole, correct deck or a 410 — never a
 * truncated body, never a 5xx.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../src/base/config.ts";
import type { HandoffRecord } from "../src/shared/handoff-record.ts";
import { silentLogger } from "../src/base/log.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { testPdfReader } from "./helpers/app.ts";
import { makeDeck } from "./fixtures/pdfs.ts";

// The timeout of each test and hook here: ~10× its server's start and stop on a loaded 2-vCPU machine (6 s).
setDefaultTimeout(60_000);

/** Simultaneous completes on one session. */
const COMPLETES = 50;
/** Downloads fired around each complete, and how many rounds (each a fresh session). */
const DOWNLOADS_PER_ROUND = 30;
const ROUNDS = 4;
/** Size of the racing deck: large enough that a download is still streaming when the claim lands. */
const RACE_DECK_BYTES = 6 * 1024 * 1024;

let dataDir: string;
let running: RunningServer;
let raceDeck: Uint8Array;
let smallDeck: Uint8Array;
/** Every id the server's blob store was asked to remove, in order. */
const removals: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "deckhand-concurrency-"));
  running = await startServer(testConfig({ dataDir, host: "127.0.0.1", port: 0, rateLimit: 0 }), { logger: silentLogger, pdf: testPdfReader() });
  // Watch deletions: the claim must unlink the staged file once, not once per request.
  const blobs = running.runtime.deps.blobs;
  const remove = blobs.remove.bind(blobs);
  blobs.remove = (id: string) => {
    removals.push(id);
    return remove(id);
  };
  // Count state changes in the database itself, whoever makes them.
  const db = new Database(join(dataDir, "deckhand.db"));
  db.run("CREATE TABLE test_state_changes (id TEXT NOT NULL, old_state TEXT NOT NULL, new_state TEXT NOT NULL)");
  db.run(`CREATE TRIGGER test_count_state_changes AFTER UPDATE OF state ON sessions WHEN OLD.state IS NOT NEW.state
          BEGIN INSERT INTO test_state_changes VALUES (NEW.id, OLD.state, NEW.state); END`);
  db.close();
  [smallDeck, raceDeck] = await Promise.all([makeDeck({ pages: 4 }), makeDeck({ pages: 12, padToBytes: RACE_DECK_BYTES })]);
});

afterAll(async () => {
  await running?.shutdown();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function present(bytes: Uint8Array, filename = "deck.pdf"): Promise<HandoffRecord & { token: string }> {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type: "application/pdf" }), filename);
  const res = await fetch(`${running.url}/api/present`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  const record = (await res.json()) as HandoffRecord;
  const token = new URL(record.url).hash.replace(/^#t=/, "");
  return { ...record, token };
}

function complete(id: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${running.url}/api/sessions/${id}/handoff/complete`, {
    method: "POST",
    headers: { "x-controller-token": token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Read the database the way an operator would: a separate, read-only connection. */
function readDb<T>(read: (db: Database) => T): T {
  const db = new Database(join(dataDir, "deckhand.db"), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const stagedPath = (id: string) => join(dataDir, "staged", `${id}.pdf`);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("50 simultaneous completes on one session", () => {
  test("claim it exactly once, delete the file once, and all answer 200 {ok:true}", async () => {
    const record = await present(smallDeck, "race.pdf");
    expect(existsSync(stagedPath(record.id))).toBe(true);
    const removalsBefore = removals.length;

    // Half send the browser's digest, half send no body: both are valid completes.
    const responses = await Promise.all(
      Array.from({ length: COMPLETES }, (_, i) => complete(record.id, record.token, i % 2 === 0 ? { sha256: record.sha256 } : undefined)),
    );
    const answers = await Promise.all(responses.map(async (res) => ({ status: res.status, body: await res.json() })));

    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.every((a) => (a.body as { ok?: unknown }).ok === true)).toBe(true);

    const row = readDb((db) => db.query("SELECT state, ended_at FROM sessions WHERE id = ?").get(record.id)) as {
      state: string;
      ended_at: number | null;
    };
    expect(row.state).toBe("claimed");
    expect(row.ended_at).not.toBeNull();
    const changes = readDb((db) => db.query("SELECT old_state, new_state FROM test_state_changes WHERE id = ?").all(record.id));
    expect(changes).toEqual([{ old_state: "staged", new_state: "claimed" }]);

    expect(removals.slice(removalsBefore).filter((id) => id === record.id)).toHaveLength(1);
    expect(existsSync(stagedPath(record.id))).toBe(false);

    // After the storm, a retry with the right token still answers ok and changes nothing.
    const retry = await complete(record.id, record.token);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ ok: true });
    expect(readDb((db) => db.query("SELECT COUNT(*) AS n FROM test_state_changes WHERE id = ?").get(record.id))).toEqual({ n: 1 });
  });
});

type Outcome =
  | { kind: "whole" }
  | { kind: "range" }
  | { kind: "gone" }
  | { kind: "bad"; what: string };

/** Download the deck and judge the answer; the body is hashed as it streams, never buffered whole. */
async function download(record: HandoffRecord & { token: string }, range: { start: number } | null): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`${running.url}/api/sessions/${record.id}/handoff?t=${encodeURIComponent(record.token)}`, {
      headers: range ? { range: `bytes=${range.start}-` } : {},
    });
  } catch (error) {
    return { kind: "bad", what: `request failed: ${String(error)}` };
  }
  if (res.status === 410) {
    const type = res.headers.get("content-type") ?? "";
    const body = (await res.json()) as { code?: string };
    if (!type.startsWith("application/problem+json") || body.code !== "HANDOFF_CLAIMED") {
      return { kind: "bad", what: `410 with ${type} ${JSON.stringify(body)}` };
    }
    return { kind: "gone" };
  }
  const expectedStatus = range ? 206 : 200;
  if (res.status !== expectedStatus) {
    return { kind: "bad", what: `status ${res.status}: ${(await res.text()).slice(0, 200)}` };
  }
  const expectedLength = range ? record.bytes - range.start : record.bytes;
  if (res.headers.get("content-length") !== String(expectedLength)) {
    await res.body?.cancel();
    return { kind: "bad", what: `content-length ${res.headers.get("content-length")}, expected ${expectedLength}` };
  }
  const hash = createHash("sha256");
  let received = 0;
  try {
    for await (const chunk of res.body!) {
      hash.update(chunk);
      received += chunk.length;
    }
  } catch (error) {
    return { kind: "bad", what: `body cut off after ${received} of ${expectedLength} bytes: ${String(error)}` };
  }
  if (received !== expectedLength) return { kind: "bad", what: `body has ${received} of ${expectedLength} bytes` };
  const expectedDigest = range ? sha256(raceDeck.subarray(range.start)) : record.sha256;
  if (hash.digest("hex") !== expectedDigest) return { kind: "bad", what: "body digest differs from the staged deck" };
  return { kind: range ? "range" : "whole" };
}

describe("downloads racing a complete", () => {
  test("each get the whole, correct deck (or the requested range) or a 410 — never a truncated body or a 5xx", async () => {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const record = await present(raceDeck, `race-${round}.pdf`);
      expect(record.sha256).toBe(sha256(raceDeck));
      expect(record.bytes).toBe(raceDeck.length);
      // Land the claim at a different point of the burst each round: first, early, late, last.
      const claimAt = Math.round((round / (ROUNDS - 1)) * (DOWNLOADS_PER_ROUND - 1));
      const pending: Promise<Outcome>[] = [];
      let claim: Promise<Response> | null = null;
      for (let i = 0; i < DOWNLOADS_PER_ROUND; i++) {
        if (i === claimAt) claim = complete(record.id, record.token, { sha256: record.sha256 });
        // Every fifth download resumes from the middle, as a browser on a bad network would.
        pending.push(download(record, i % 5 === 4 ? { start: Math.floor(record.bytes / 2) + i } : null));
        // Spread the burst over a few event-loop turns so requests interleave with the claim
        // (the race's shape, not a wait for anything).
        if (i % 3 === 2) await Bun.sleep(1);
      }
      const claimed = await claim!;
      expect(claimed.status).toBe(200);
      expect(await claimed.json()).toMatchObject({ ok: true });
      outcomes.push(...(await Promise.all(pending)));
      // Once the claim has answered, the link is dead for everyone.
      expect(await download(record, null)).toEqual({ kind: "gone" });
      expect(existsSync(stagedPath(record.id))).toBe(false);
      expect(readDb((db) => db.query("SELECT state FROM sessions WHERE id = ?").get(record.id))).toEqual({ state: "claimed" });
    }

    const bad = outcomes.filter((o): o is Extract<Outcome, { kind: "bad" }> => o.kind === "bad").map((o) => o.what);
    expect(bad).toEqual([]);
    expect(outcomes).toHaveLength(ROUNDS * DOWNLOADS_PER_ROUND);
    const count = (kind: Outcome["kind"]) => outcomes.filter((o) => o.kind === kind).length;
    console.log(`downloads racing a complete: ${count("whole")} whole, ${count("range")} ranges, ${count("gone")} got 410`);
  }, 120_000);
});
