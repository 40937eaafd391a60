/**
 * The contract of the storage ports (src/core/), run against every backend: SQLite +
 * files (test/store/sqlite-files.test.ts) and PostgreSQL + S3 (test/store/postgres-s3.test.ts),
 * each on a real engine. Every state transition, the claim race, expiry, tombstones, the
 * quota, tokens, bytes, the sweep, the rate limit (and the keys it remembers) and the live bus.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import type { BlobStore } from "../../src/core/blobs.ts";
import type { SessionRow } from "../../src/core/sessions.ts";
import { HandoffService, TOMBSTONE_TTL_MS } from "../../src/handoff/service.ts";
import { newSessionId } from "../../src/handoff/secrets.ts";
import type { PdfReader } from "../../src/core/pdf-reader.ts";
import type { Storage } from "../../src/store/backends.ts";
import { waitFor } from "../helpers/wait.ts";

/** One instance's view of the storage: what store/backends opens, less its lifecycle. */
// Live sessions have their own contract (test/live/repository.test.ts), run against SQLite and PostgreSQL.
export type Instance = Omit<Storage, "ready" | "close" | "liveSessions" | "dependencies">;

export interface Backend {
  /** A fresh, empty store, and a second instance on the same store. */
  open(): Promise<{ a: Instance; b: Instance; close(): Promise<void> }>;
  /** Whether two instances share the rate limit and exclude each other from sweeping. */
  shared: boolean;
}

const NOW = Date.parse("2026-11-22T10:00:00Z");
const HOUR = 3_600_000;

function row(overrides: Partial<SessionRow> = {}): SessionRow {
  return {
    id: newSessionId(),
    tokenHash: "a".repeat(64),
    filename: "Q3 review — ünïcode",
    totalSlides: 12,
    bytes: 1000,
    sha256: "b".repeat(64),
    state: "staged",
    authenticated: false,
    createdAt: NOW,
    expiresAt: NOW + 24 * HOUR,
    endedAt: null,
    notes: null,
    ...overrides,
  };
}

async function stageBytes(blobs: BlobStore, id: string, bytes: Uint8Array): Promise<void> {
  const temp = blobs.createTemp();
  await writeFile(temp.path, bytes);
  await blobs.commit(temp, id);
  blobs.settle(id);
}

async function readAll(blobs: BlobStore, id: string, range?: { start: number; end: number }): Promise<Uint8Array | null> {
  const opened = await blobs.open(id, range);
  return opened ? new Uint8Array(await new Response(opened.body).arrayBuffer()) : null;
}

/** Over one multipart part (5 MiB), so an S3 commit is a real multipart upload. */
const bytes = new Uint8Array(6 * 1024 * 1024 + 123).map((_, i) => (i * 7) % 251);

/** A PDF reader that is never asked (the sweep does not read PDFs). */
const NO_PDF = {} as PdfReader;

export function describeStorageContract(name: string, backend: Backend): void {
  describe(`storage contract: ${name}`, () => {
    let store: Awaited<ReturnType<Backend["open"]>>;
    let a: Instance;
    let b: Instance;
    beforeAll(async () => {
      store = await backend.open();
      ({ a, b } = store);
    });
    afterAll(async () => {
      await store?.close();
    });

    describe("sessions", () => {
      test("a staged row reads back field for field, from either instance", async () => {
        const r = row({ authenticated: true, bytes: 3_000_000_000 });
        expect(await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER)).toBe(true);
        expect(await a.sessions.get(r.id)).toEqual(r);
        expect(await b.sessions.get(r.id)).toEqual(r);
        expect(await a.sessions.get("nope")).toBeNull();
        // Leave the quota as it was for the tests below.
        expect(await a.sessions.claim(r.id, NOW)).not.toBeNull();
      });

      test("claim: staged → claimed once, with ended_at; not when expired; not twice", async () => {
        const r = row();
        await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER);
        const claimed = await b.sessions.claim(r.id, NOW + 5);
        expect(claimed).toEqual({ ...r, state: "claimed", endedAt: NOW + 5 });
        expect(await a.sessions.claim(r.id, NOW + 6)).toBeNull();
        expect((await a.sessions.get(r.id))?.endedAt).toBe(NOW + 5);

        const late = row({ expiresAt: NOW + 10 });
        await a.sessions.insertWithinQuota(late, Number.MAX_SAFE_INTEGER);
        expect(await a.sessions.claim(late.id, NOW + 10)).toBeNull();
        expect((await a.sessions.get(late.id))?.state).toBe("staged");
        await a.sessions.markExpired([late.id], NOW + 10);
      });

      test("50 concurrent claims from two instances: exactly one transition, the quota drops once", async () => {
        const before = await a.sessions.stagedBytes();
        const r = row({ bytes: 777 });
        await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER);
        expect(await a.sessions.stagedBytes()).toBe(before + 777);
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).sessions.claim(r.id, NOW + i)));
        const winners = results.filter((x) => x !== null);
        expect(winners).toHaveLength(1);
        const stored = await a.sessions.get(r.id);
        expect(stored?.state).toBe("claimed");
        expect(stored?.endedAt).toBe(winners[0]!.endedAt);
        expect(await a.sessions.stagedBytes()).toBe(before);
      });

      test("expiry: due ids in expiry order; only staged rows past expiry are marked; ended_at = expires_at", async () => {
        const t0 = NOW + 1000 * HOUR;
        const due1 = row({ expiresAt: t0 - 2 });
        const due2 = row({ expiresAt: t0 - 1 });
        const fresh = row({ expiresAt: t0 + HOUR });
        const claimed = row({ expiresAt: t0 - 3 });
        for (const r of [due2, fresh, claimed, due1]) await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER);
        await a.sessions.claim(claimed.id, t0 - 4);
        const due = await b.sessions.dueIds(t0, 100);
        expect(due.slice(-2)).toEqual([due1.id, due2.id]);
        expect(due).not.toContain(fresh.id);
        expect(due).not.toContain(claimed.id);
        expect(await b.sessions.dueIds(t0, 1)).toHaveLength(1);
        expect(await a.sessions.markExpired([due1.id, due2.id, fresh.id, claimed.id], t0)).toBe(2);
        expect(await a.sessions.get(due1.id)).toMatchObject({ state: "expired", endedAt: t0 - 2 });
        expect((await a.sessions.get(fresh.id))?.state).toBe("staged");
        expect((await a.sessions.get(claimed.id))?.state).toBe("claimed");
        expect(await a.sessions.markExpired([], t0)).toBe(0);
        expect(await a.sessions.markExpired([due1.id], t0)).toBe(0);
        await a.sessions.claim(fresh.id, t0);
      });

      test("tombstones: only ended rows before the cut are purged, at most `limit` at a time", async () => {
        const t0 = NOW + 2000 * HOUR;
        const ended = [row({ expiresAt: t0 + HOUR }), row({ expiresAt: t0 + HOUR }), row({ expiresAt: t0 + HOUR })];
        for (const r of ended) {
          await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER);
          await a.sessions.claim(r.id, t0);
        }
        const staged = row({ createdAt: t0 - 100 * HOUR, expiresAt: t0 + 100 * HOUR });
        await a.sessions.insertWithinQuota(staged, Number.MAX_SAFE_INTEGER);
        const recent = row({ expiresAt: t0 + HOUR });
        await a.sessions.insertWithinQuota(recent, Number.MAX_SAFE_INTEGER);
        await a.sessions.claim(recent.id, t0 + 10);
        // Everything that ended before t0 + 1 (the three, and earlier tests' rows).
        let purged = 0;
        for (;;) {
          const n = await b.sessions.purgeEnded(t0 + 1, 2);
          expect(n).toBeLessThanOrEqual(2);
          purged += n;
          if (n < 2) break;
        }
        expect(purged).toBeGreaterThanOrEqual(3);
        for (const r of ended) expect(await a.sessions.get(r.id)).toBeNull();
        expect((await a.sessions.get(staged.id))?.state).toBe("staged");
        expect((await a.sessions.get(recent.id))?.state).toBe("claimed");
        await a.sessions.claim(staged.id, t0);
      });

      test("quota: a running total of staged bytes through insert, claim, expiry and purge; no overshoot under concurrency", async () => {
        const base = await a.sessions.stagedBytes();
        const max = base + 5 * 1000;
        const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).sessions.insertWithinQuota(row({ bytes: 1000 }), max)));
        expect(attempts.filter(Boolean)).toHaveLength(5);
        expect(await b.sessions.stagedBytes()).toBe(max);
        expect(await a.sessions.insertWithinQuota(row({ bytes: 1 }), max)).toBe(false);
        const expiring = row({ bytes: 300, expiresAt: NOW });
        expect(await a.sessions.insertWithinQuota(expiring, max + 300)).toBe(true);
        expect(await a.sessions.stagedBytes()).toBe(max + 300);
        await a.sessions.markExpired([expiring.id], NOW);
        expect(await a.sessions.stagedBytes()).toBe(max);
        // Free it all again through claims.
        for (const id of await a.sessions.dueIds(Number.MAX_SAFE_INTEGER, 1000)) await a.sessions.claim(id, NOW);
        expect(await a.sessions.stagedBytes()).toBe(0);
      });

      test("notes: described on the row, their text read on its own, cleared by the claim and by the expiry", async () => {
        const notes = { filename: "talk — ünïcode.pptx", kind: "pptx" as const, slides: 3 };
        const text = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "Say **hi** 👋" }] });
        const withNotes = row({ notes });
        expect(await a.sessions.insertWithinQuota(withNotes, Number.MAX_SAFE_INTEGER, text)).toBe(true);
        expect(await b.sessions.get(withNotes.id)).toEqual(withNotes);
        expect(await b.sessions.notesText(withNotes.id)).toBe(text);
        // A row without notes has no text, even if some were passed (they would never be handed out).
        const without = row();
        await a.sessions.insertWithinQuota(without, Number.MAX_SAFE_INTEGER, text);
        expect((await a.sessions.get(without.id))?.notes).toBeNull();
        expect(await a.sessions.notesText(without.id)).toBeNull();
        expect(await a.sessions.notesText("unknown")).toBeNull();
        // The claim takes the text with it, in the same statement; the row still says what came.
        expect(await b.sessions.claim(withNotes.id, NOW + 1)).toEqual({ ...withNotes, state: "claimed", endedAt: NOW + 1 });
        expect(await a.sessions.notesText(withNotes.id)).toBeNull();
        // So does the expiry.
        const expiring = row({ notes: { filename: "deck.pdfpc", kind: "pdfpc", slides: 1 }, expiresAt: NOW + 5 });
        await a.sessions.insertWithinQuota(expiring, Number.MAX_SAFE_INTEGER, text);
        expect(await b.sessions.notesText(expiring.id)).toBe(text);
        expect(await b.sessions.markExpired([expiring.id], NOW + 5)).toBe(1);
        expect(await a.sessions.notesText(expiring.id)).toBeNull();
        expect((await a.sessions.get(expiring.id))?.state).toBe("expired");
        await a.sessions.claim(without.id, NOW);
      });

      test("stagedAmong answers which listed ids are staged rows", async () => {
        const staged = row();
        const claimed = row();
        await a.sessions.insertWithinQuota(staged, Number.MAX_SAFE_INTEGER);
        await a.sessions.insertWithinQuota(claimed, Number.MAX_SAFE_INTEGER);
        await a.sessions.claim(claimed.id, NOW);
        expect(await b.sessions.stagedAmong([staged.id, claimed.id, "unknown"])).toEqual(new Set([staged.id]));
        expect(await b.sessions.stagedAmong([])).toEqual(new Set());
        await a.sessions.claim(staged.id, NOW);
      });
    });

    describe("access tokens", () => {
      test("insert, list in creation order, use marks last use, revoke by label or id, revoked never used", async () => {
        await a.tokens.insert({ id: "tok_1", label: "laptop", tokenHash: "1".repeat(64), createdAt: NOW });
        await a.tokens.insert({ id: "tok_2", label: null, tokenHash: "2".repeat(64), createdAt: NOW + 1 });
        expect((await b.tokens.list()).map((t) => [t.id, t.label, t.revokedAt, t.lastUsedAt])).toEqual([
          ["tok_1", "laptop", null, null],
          ["tok_2", null, null, null],
        ]);
        expect(await b.tokens.useByHash("1".repeat(64), NOW + 5)).toMatchObject({ id: "tok_1", lastUsedAt: NOW + 5 });
        expect(await b.tokens.useByHash("9".repeat(64), NOW + 5)).toBeNull();
        expect((await a.tokens.revoke("laptop", NOW + 6)).map((t) => t.id)).toEqual(["tok_1"]);
        expect(await a.tokens.revoke("laptop", NOW + 7)).toEqual([]);
        expect(await b.tokens.useByHash("1".repeat(64), NOW + 8)).toBeNull();
        expect((await a.tokens.revoke("tok_2", NOW + 9))[0]).toMatchObject({ id: "tok_2", revokedAt: NOW + 9 });
        expect(a.tokens.insert({ id: "tok_3", label: null, tokenHash: "2".repeat(64), createdAt: NOW })).rejects.toThrow();
      });
    });

    describe("blobs", () => {
      test("a committed temp file reads back whole and by range, from either instance; removed, it is gone", async () => {
        const id = newSessionId();
        await stageBytes(a.blobs, id, bytes);
        expect(await readAll(b.blobs, id)).toEqual(bytes);
        expect(await readAll(a.blobs, id, { start: 5, end: 9 })).toEqual(bytes.slice(5, 10));
        expect(await readAll(a.blobs, id, { start: bytes.length - 3, end: bytes.length - 1 })).toEqual(bytes.slice(-3));
        expect(await b.blobs.remove(id)).toBe(true);
        expect(await a.blobs.open(id)).toBeNull();
        expect(await a.blobs.open(newSessionId())).toBeNull();
      });

      test("an id being committed is not listed until settled; a discarded temp is gone; a leftover temp is swept", async () => {
        const id = newSessionId();
        const temp = a.blobs.createTemp();
        await writeFile(temp.path, bytes.subarray(0, 1000));
        await a.blobs.commit(temp, id);
        expect(await a.blobs.listIds()).not.toContain(id);
        a.blobs.settle(id);
        expect(await a.blobs.listIds()).toContain(id);
        await a.blobs.remove(id);

        const inUse = a.blobs.createTemp();
        await writeFile(inUse.path, "x");
        expect(await a.blobs.sweepTemps()).toBe(0);
        await inUse.discard();
        expect(await Bun.file(inUse.path).exists()).toBe(false);
        await inUse.discard(); // idempotent
      });
    });

    describe("the sweep (HandoffService over the ports)", () => {
      test("expired decks lose bytes then rows; orphan bytes go; staged decks keep theirs; one sweeper at a time", async () => {
        const t0 = NOW + 5000 * HOUR;
        const service = (i: Instance) => new HandoffService({ sessions: i.sessions, blobs: i.blobs, pdf: NO_PDF, clock: () => t0, maxStagedBytes: Number.MAX_SAFE_INTEGER, sweepLease: i.sweepLease });
        const due = row({ expiresAt: t0 - 1 });
        const live = row({ expiresAt: t0 + HOUR });
        for (const r of [due, live]) {
          await stageBytes(a.blobs, r.id, bytes.subarray(0, 100));
          await a.sessions.insertWithinQuota(r, Number.MAX_SAFE_INTEGER);
        }
        const orphan = newSessionId();
        await stageBytes(a.blobs, orphan, bytes.subarray(0, 100));

        if (backend.shared) {
          // While instance a holds the lease, b's sweep is skipped and changes nothing.
          let inside: (() => void) | undefined;
          const held = a.sweepLease.runExclusive(() => new Promise<void>((resolve) => (inside = resolve)));
          await waitFor(() => inside !== undefined, "instance a to hold the sweep lease");
          expect(await service(b).sweep()).toEqual({ swept: false, expired: 0, purgedTombstones: 0, removedTemps: 0, removedOrphans: 0 });
          expect((await a.sessions.get(due.id))?.state).toBe("staged");
          inside!();
          await held;
        }
        const result = await service(b).sweep();
        expect(result.swept).toBe(true);
        expect(result.expired).toBe(1);
        expect(result.removedOrphans).toBeGreaterThanOrEqual(1);
        expect(await a.sessions.get(due.id)).toMatchObject({ state: "expired", endedAt: t0 - 1 });
        expect(await a.blobs.open(due.id)).toBeNull();
        expect(await a.blobs.open(orphan)).toBeNull();
        expect(await readAll(a.blobs, live.id)).toEqual(bytes.subarray(0, 100));
        // Tombstones go after their week.
        const later = new HandoffService({ sessions: a.sessions, blobs: a.blobs, pdf: NO_PDF, clock: () => t0 + TOMBSTONE_TTL_MS + 1, maxStagedBytes: 1, sweepLease: a.sweepLease });
        await a.sessions.claim(live.id, t0);
        await a.blobs.remove(live.id);
        expect((await later.sweep()).purgedTombstones).toBeGreaterThanOrEqual(2);
        expect(await a.sessions.get(due.id)).toBeNull();
      });
    });

    describe("rate limit", () => {
      test("a fixed window per key: allowed up to the limit, then Retry-After until the window ends", async () => {
        const t0 = NOW + 9000 * HOUR;
        expect(await a.rateLimits.hit("10.0.0.1", t0, 2)).toEqual({ allowed: true, retryAfter: 60 });
        expect((await a.rateLimits.hit("10.0.0.1", t0 + 1000, 2)).allowed).toBe(true);
        expect(await a.rateLimits.hit("10.0.0.1", t0 + 30_500, 2)).toEqual({ allowed: false, retryAfter: 30 });
        expect((await a.rateLimits.hit("10.0.0.2", t0 + 30_500, 2)).allowed).toBe(true);
        expect((await a.rateLimits.hit("10.0.0.1", t0 + 60_000, 2)).allowed).toBe(true);
        if (backend.shared) {
          // The other instance counts against the same window.
          expect((await b.rateLimits.hit("10.0.0.1", t0 + 60_001, 2)).allowed).toBe(true);
          expect((await b.rateLimits.hit("10.0.0.1", t0 + 60_002, 2)).allowed).toBe(false);
          expect(await a.rateLimits.prune?.(t0 + 60_000)).toBeGreaterThanOrEqual(1);
        }
      });

      test("a key remembered until a time is known until then (on every instance), keeps its later end, and is forgotten after", async () => {
        const t0 = NOW + 9100 * HOUR;
        const key = "live-opened:ABC234:10.0.0.1";
        const other = backend.shared ? b : a;
        expect(await a.rateLimits.remembers(key, t0)).toBe(false);
        await a.rateLimits.remember(key, t0, t0 + 10_000);
        expect(await other.rateLimits.remembers(key, t0 + 1)).toBe(true);
        expect(await a.rateLimits.remembers(key, t0 + 9_999)).toBe(true);
        // Remembered again with an earlier end: the later one stays.
        await other.rateLimits.remember(key, t0 + 2, t0 + 5_000);
        expect(await a.rateLimits.remembers(key, t0 + 9_000)).toBe(true);
        expect(await other.rateLimits.remembers(key, t0 + 10_000)).toBe(false);
        // Another key (another address, another talk) is not remembered.
        expect(await a.rateLimits.remembers("live-opened:ABC234:10.0.0.2", t0 + 1)).toBe(false);
        expect(await a.rateLimits.remembers("live-opened:XYZ789:10.0.0.1", t0 + 1)).toBe(false);
        // A later end moves it on.
        await other.rateLimits.remember(key, t0 + 3, t0 + 20_000);
        expect(await a.rateLimits.remembers(key, t0 + 15_000)).toBe(true);
        if (backend.shared) {
          // The sweeper's prune forgets it once ended (a window pruned too counts).
          expect(await a.rateLimits.prune?.(t0 + 20_001)).toBeGreaterThanOrEqual(1);
          expect(await b.rateLimits.remembers(key, t0 + 15_000)).toBe(false);
        }
      });
    });

    describe("live bus (the seam of issue 11)", () => {
      test("subscribers on every instance receive each message once, in order; closed, they receive no more", async () => {
        const received: Record<string, string[]> = { a: [], b: [] };
        const subA = await a.liveBus.subscribe("talk1", (m) => received.a!.push(m));
        const subB = await b.liveBus.subscribe("talk1", (m) => received.b!.push(m));
        const other = await b.liveBus.subscribe("talk2", (m) => received.b!.push(`other:${m}`));
        for (let i = 0; i < 5; i++) await a.liveBus.publish("talk1", `slide ${i}`);
        const expected = Array.from({ length: 5 }, (_, i) => `slide ${i}`);
        const listeners = backend.shared ? ["a", "b"] : ["a"];
        await waitFor(() => listeners.every((k) => received[k]!.length >= 5), "every subscriber to receive five messages");
        expect(received.a).toEqual(expected);
        if (backend.shared) expect(received.b).toEqual(expected);
        await subA.close();
        // A witness subscribed on the same instance: once it has the message, a closed
        // subscription still served would have had it too.
        const witnessed: string[] = [];
        const witness = await a.liveBus.subscribe("talk1", (m) => witnessed.push(m));
        await a.liveBus.publish("talk1", "after");
        await waitFor(() => witnessed.includes("after"), "the witness to receive the message");
        expect(received.a).toEqual(expected);
        await Promise.all([subB.close(), other.close(), witness.close()]);
        expect(a.liveBus.publish("talk1", "x".repeat(8000))).rejects.toThrow();
      });
    });
  });
}
