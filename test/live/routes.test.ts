/**
 * The REST routes of live presenting through app.handle(): going live (shape, bad input,
 * credentials and live grants on --require-auth), info, the deck (Range, ETag), end and
 * rotate with the presenter secret, the code-guessing limit, TTL expiry by the sweeper, the
 * sweep ending talks whose presenter never came within the grace, the
 * orphan sweep leaving live decks alone, and the OpenAPI document.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { LIVE_JOIN_FAILURES_PER_MINUTE } from "../../src/live/join-guard.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { currentPdfOwner } from "../../src/pdf/worker/owner.ts";
import { PdfPool } from "../../src/pdf/worker/pool.ts";
import { makeTestApp, problemOf, type TestApp } from "../helpers/app.ts";
import type { Created } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.3 s).
setDefaultTimeout(60_000);

let t: TestApp;
afterEach(() => t?.close());

/** The 201 body of POST /api/live. */
type LiveBody = Created & { filename: string; allowDownload: boolean };

async function goLive(app: TestApp, deck: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return app.upload(deck, { path: "/api/live", filename: "Q3 review.pdf", headers });
}

async function live(app: TestApp, deck: Uint8Array): Promise<LiveBody> {
  const res = await goLive(app, deck);
  expect(res.status).toBe(201);
  return (await res.json()) as LiveBody;
}

const deckPath = (app: TestApp, code: string) => join(app.dataDir, "staged", `live-${code}.pdf`);

describe("POST /api/live", () => {
  test("201 with a 6-character code, viewer and control URLs, the presenter secret, and the deck stored under the code", async () => {
    t = makeTestApp();
    const deck = await makeDeck({ pages: 3 });
    const body = await live(t, deck);
    expect(body.code).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(body.viewerUrl).toBe(`http://deckhand.test/live/${body.code}`);
    expect(body.controlUrl).toMatch(new RegExp(`^http://deckhand\\.test/live/${body.code}/control#[A-Za-z0-9_-]{43}$`));
    expect(body.presenterSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ totalSlides: 3, bytes: deck.byteLength, sha256: createHash("sha256").update(deck).digest("hex"), filename: "Q3 review", allowDownload: false, expiresAt: "2026-11-22T22:00:00Z" });
    expect(existsSync(deckPath(t, body.code))).toBe(true);
    // Secrets are stored only as hashes.
    const { Database } = await import("bun:sqlite");
    const db = new Database(join(t.dataDir, "deckhand.db"), { readonly: true });
    const row = db.query("SELECT * FROM live_sessions WHERE code = ?").get(body.code) as Record<string, unknown>;
    db.close();
    const secret = new URL(body.controlUrl).hash.slice(1);
    expect(JSON.stringify(row)).not.toContain(body.presenterSecret);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.presenter_hash).toBe(createHash("sha256").update(body.presenterSecret).digest("hex"));
  });

  test("its PDF is read as the caller's job: the readers are shared per address, as for a present", async () => {
    // A reader that notes whose job each validation is (pdf/worker/owner), then reads it.
    class OwnerNotingPool extends PdfPool {
      owners: string[] = [];
      override inspect(...args: Parameters<PdfPool["inspect"]>) {
        this.owners.push(currentPdfOwner());
        return super.inspect(...args);
      }
    }
    const pdf = new OwnerNotingPool({ workers: 1 });
    try {
      t = makeTestApp({ trustProxy: true }, { pdf });
      const res = await goLive(t, await makeDeck({ pages: 2 }), { "x-forwarded-for": "203.0.113.7" });
      expect(res.status).toBe(201);
      expect(pdf.owners).toEqual(["203.0.113.7"]);
    } finally {
      await pdf.close();
    }
  });

  test("bad input gets the same problems as /api/present, and leaves no file", async () => {
    t = makeTestApp();
    const notPdf = await problemOf(await goLive(t, new TextEncoder().encode("hello, not a pdf")));
    expect([notPdf.status, notPdf.body.code]).toEqual([415, "NOT_A_PDF"]);
    const form = new FormData();
    form.append("other", "x");
    const missing = await problemOf(await t.handle("/api/live", { method: "POST", body: form }));
    expect([missing.status, missing.body.code]).toEqual([400, "FILE_MISSING"]);
    expect(t.stagedFiles().filter((f) => f.endsWith(".pdf"))).toEqual([]);
  });

  test("over --max-staged-gb it is 507 STORAGE_FULL, counting live decks with staged handoffs", async () => {
    const deck = await makeDeck({ pages: 2 });
    t = makeTestApp({ maxStagedBytes: deck.byteLength * 2 + 10 });
    await t.present(deck);
    await live(t, deck);
    const full = await problemOf(await goLive(t, deck));
    expect([full.status, full.body.code]).toEqual([507, "STORAGE_FULL"]);
  });
});

describe("--require-auth", () => {
  test("no credential is 401; a Bearer token or a live grant from a claim of the same deck goes live", async () => {
    t = makeTestApp({ requireAuth: true });
    const deck = await makeDeck({ pages: 2 });
    const none = await problemOf(await goLive(t, deck));
    expect([none.status, none.body.code]).toEqual([401, "UNAUTHORIZED"]);
    const { token } = await t.deps.accessTokens.create("ci");
    expect((await goLive(t, deck, { authorization: `Bearer ${token}` })).status).toBe(201);
    const record = await t.present(deck, { token });
    const claim = await t.handle(`/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": record.token } });
    const { liveGrant } = (await claim.json()) as { liveGrant: { grant: string; expiresAt: string } };
    expect(liveGrant.expiresAt).toBe("2026-11-22T12:00:00Z");
    const res = await goLive(t, deck, { authorization: `Grant ${liveGrant.grant}` });
    expect(res.status).toBe(201);
  });

  test("a grant for another deck, an unknown grant and an expired grant are 403 LIVE_GRANT_INVALID, and no file is left", async () => {
    t = makeTestApp({ requireAuth: true });
    const { token } = await t.deps.accessTokens.create("ci");
    const deck = await makeDeck({ pages: 2 });
    const other = await makeDeck({ pages: 4 });
    const record = await t.present(deck, { token });
    const claim = await t.handle(`/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": record.token } });
    const { liveGrant } = (await claim.json()) as { liveGrant: { grant: string } };
    const wrongDeck = await problemOf(await goLive(t, other, { authorization: `Grant ${liveGrant.grant}` }));
    expect([wrongDeck.status, wrongDeck.body.code]).toEqual([403, "LIVE_GRANT_INVALID"]);
    const unknown = await problemOf(await goLive(t, deck, { authorization: "Grant nope" }));
    expect([unknown.status, unknown.body.code]).toEqual([403, "LIVE_GRANT_INVALID"]);
    t.advance(2 * 60 * 60 * 1000 + 1000);
    const expired = await problemOf(await goLive(t, deck, { authorization: `Grant ${liveGrant.grant}` }));
    expect([expired.status, expired.body.code]).toEqual([403, "LIVE_GRANT_INVALID"]);
    expect(t.stagedFiles().filter((f) => f.endsWith(".pdf"))).toEqual([]);
  });
  test("a grant may go live again (a rehearsal, then the talk), but at the anonymous upload rate: past --rate-limit, 429", async () => {
    t = makeTestApp({ requireAuth: true, rateLimit: 2 });
    const { token } = await t.deps.accessTokens.create("ci");
    const deck = await makeDeck({ pages: 2 });
    const record = await t.present(deck, { token });
    const claim = await t.handle(`/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": record.token } });
    const { liveGrant } = (await claim.json()) as { liveGrant: { grant: string } };
    const authorization = `Grant ${liveGrant.grant}`;
    expect((await goLive(t, deck, { authorization })).status).toBe(201);
    expect((await goLive(t, deck, { authorization })).status).toBe(201);
    const third = await problemOf(await goLive(t, deck, { authorization }));
    expect([third.status, third.body.code]).toEqual([429, "RATE_LIMITED"]);
    expect(t.stagedFiles().filter((f) => f.startsWith("live-")).length).toBe(2);
  });
});

describe("GET /api/live/{code} and /deck", () => {
  test("info: the deck's facts, paused without a presenter, no secrets", async () => {
    t = makeTestApp();
    const body = await live(t, await makeDeck({ pages: 2 }));
    const res = await t.handle(`/api/live/${body.code}`);
    expect(res.status).toBe(200);
    const info = await res.json();
    expect(info).toEqual({ code: body.code, filename: "Q3 review", totalSlides: 2, bytes: body.bytes, sha256: body.sha256, allowDownload: false, expiresAt: body.expiresAt, paused: true, notes: false, counts: { viewers: 0, controls: 0, presenter: false } });
  });

  test("unknown and malformed codes are 404 LIVE_NOT_FOUND problems", async () => {
    t = makeTestApp();
    for (const code of ["ABCDEF", "abc", "000000"]) {
      const p = await problemOf(await t.handle(`/api/live/${code}`));
      expect([p.status, p.contentType, p.body.code]).toEqual([404, "application/problem+json", "LIVE_NOT_FOUND"]);
    }
  });

  test("the deck: 200 with ETag and Repr-Digest, a Range resumes with 206, a foreign If-Range gets the whole deck", async () => {
    t = makeTestApp();
    const deck = await makeDeck({ pages: 2 });
    const body = await live(t, deck);
    const full = await t.handle(`/api/live/${body.code}/deck`);
    expect(full.status).toBe(200);
    expect(full.headers.get("etag")).toBe(`"${body.sha256}"`);
    expect(full.headers.get("repr-digest")).toBe(`sha-256=:${Buffer.from(body.sha256, "hex").toString("base64")}:`);
    expect(new Uint8Array(await full.arrayBuffer())).toEqual(deck);
    const part = await t.handle(`/api/live/${body.code}/deck`, { headers: { range: "bytes=100-", "if-range": `"${body.sha256}"` } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-${deck.byteLength - 1}/${deck.byteLength}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(deck.slice(100));
    const stale = await t.handle(`/api/live/${body.code}/deck`, { headers: { range: "bytes=100-", "if-range": '"other"' } });
    expect(stale.status).toBe(200);
    const beyond = await problemOf(await t.handle(`/api/live/${body.code}/deck`, { headers: { range: `bytes=${deck.byteLength + 5}-` } }));
    expect([beyond.status, beyond.body.code]).toEqual([416, "RANGE_NOT_SATISFIABLE"]);
  });

  test("unknown codes count against the address: past the limit even a real code is 429 with Retry-After", async () => {
    t = makeTestApp();
    const body = await live(t, await makeDeck({ pages: 2 }));
    t.deps.peerAddress = () => "2001:db8:1:2:3:4:5:6";
    for (let i = 0; i < LIVE_JOIN_FAILURES_PER_MINUTE; i++) expect((await t.handle("/api/live/ZZZZZZ")).status).toBe(404);
    expect((await t.handle("/api/live/ZZZZZZ")).status).toBe(404);
    // The same /64 is the same guesser.
    t.deps.peerAddress = () => "2001:db8:1:2:ffff::1";
    const limited = await t.handle(`/api/live/${body.code}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).code).toBe("RATE_LIMITED");
    // Another address is not affected, and the block ends with the window.
    t.deps.peerAddress = () => "192.0.2.7";
    expect((await t.handle(`/api/live/${body.code}`)).status).toBe(200);
    t.advance(61_000);
    t.deps.peerAddress = () => "2001:db8:1:2:3:4:5:6";
    expect((await t.handle(`/api/live/${body.code}`)).status).toBe(200);
  });
});

describe("end and rotate", () => {
  test("need the presenter secret: 401 without, 403 wrong; end deletes the deck file at once and the code answers 410", async () => {
    t = makeTestApp();
    const body = await live(t, await makeDeck({ pages: 2 }));
    const missing = await problemOf(await t.handle(`/api/live/${body.code}/end`, { method: "POST" }));
    expect([missing.status, missing.body.code]).toEqual([401, "LIVE_SECRET_MISSING"]);
    const wrong = await problemOf(await t.handle(`/api/live/${body.code}/end`, { method: "POST", headers: { "x-presenter-secret": "x".repeat(43) } }));
    expect([wrong.status, wrong.body.code]).toEqual([403, "LIVE_SECRET_INVALID"]);
    const control = new URL(body.controlUrl).hash.slice(1);
    const asControl = await problemOf(await t.handle(`/api/live/${body.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": control } }));
    expect(asControl.status).toBe(403);
    expect(existsSync(deckPath(t, body.code))).toBe(true);
    const ok = await t.handle(`/api/live/${body.code}/end`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } });
    expect([ok.status, await ok.json()]).toEqual([200, { ok: true }]);
    expect(existsSync(deckPath(t, body.code))).toBe(false);
    for (const path of [`/api/live/${body.code}`, `/api/live/${body.code}/deck`]) {
      const gone = await problemOf(await t.handle(path));
      expect([gone.status, gone.body.code]).toEqual([410, "LIVE_ENDED"]);
    }
    const again = await problemOf(await t.handle(`/api/live/${body.code}/end`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } }));
    expect(again.status).toBe(410);
  });

  test("rotate returns a new control URL with a new secret", async () => {
    t = makeTestApp();
    const body = await live(t, await makeDeck({ pages: 2 }));
    const res = await t.handle(`/api/live/${body.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } });
    expect(res.status).toBe(200);
    const { controlUrl } = (await res.json()) as { controlUrl: string };
    expect(controlUrl).toMatch(new RegExp(`/live/${body.code}/control#[A-Za-z0-9_-]{43}$`));
    expect(controlUrl).not.toBe(body.controlUrl);
  });
});

describe("sweeper", () => {
  test("a session past --live-ttl is ended by the sweep: its deck file is deleted and the code answers 410", async () => {
    // A grace longer than the TTL: only the TTL can end this talk (nobody presents it).
    t = makeTestApp({ liveTtlMs: 60 * 60 * 1000, livePresenterGraceMs: 2 * 60 * 60 * 1000 });
    const body = await live(t, await makeDeck({ pages: 2 }));
    t.advance(30 * 60 * 1000);
    expect(await t.deps.live.sweep()).toMatchObject({ liveExpired: 0 });
    expect(existsSync(deckPath(t, body.code))).toBe(true);
    t.advance(31 * 60 * 1000);
    expect(await t.deps.live.sweep()).toMatchObject({ liveExpired: 1 });
    expect(existsSync(deckPath(t, body.code))).toBe(false);
    expect((await t.handle(`/api/live/${body.code}`)).status).toBe(410);
  });

  test("a talk whose presenter never connects is ended by the sweep once --live-presenter-grace has passed, also after a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "deckhand-live-gone-"));
    try {
      const first = makeTestApp({ dataDir, livePresenterGraceMs: 15 * 60 * 1000 });
      const body = await live(first, await makeDeck({ pages: 2 }));
      first.advance(14 * 60 * 1000);
      expect(await first.deps.live.sweep()).toMatchObject({ livePresenterGone: 0, liveExpired: 0 });
      first.close();
      // A restart nobody comes back to: no instance has the talk loaded, no grace timer runs.
      t = makeTestApp({ dataDir, livePresenterGraceMs: 15 * 60 * 1000 });
      t.advance(15 * 60 * 1000);
      expect(await t.deps.live.sweep()).toMatchObject({ livePresenterGone: 0 });
      expect(existsSync(deckPath(t, body.code))).toBe(true);
      t.advance(1);
      expect(await t.deps.live.sweep()).toMatchObject({ livePresenterGone: 1, liveExpired: 0 });
      expect(existsSync(deckPath(t, body.code))).toBe(false);
      const gone = await t.handle(`/api/live/${body.code}`);
      expect(gone.status).toBe(410);
      expect(await t.deps.live.find(body.code)).toMatchObject({ endReason: "presenter-gone" });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("an expired session is refused at once, even before the sweeper runs", async () => {
    t = makeTestApp({ liveTtlMs: 60 * 60 * 1000 });
    const body = await live(t, await makeDeck({ pages: 2 }));
    t.advance(61 * 60 * 1000);
    expect((await t.handle(`/api/live/${body.code}`)).status).toBe(410);
    expect(existsSync(deckPath(t, body.code))).toBe(false);
  });

  test("the handoff orphan sweep keeps open live decks and removes ended ones' leftovers", async () => {
    t = makeTestApp();
    const body = await live(t, await makeDeck({ pages: 2 }));
    const result = await t.deps.handoff.sweep();
    expect(result.removedOrphans).toBe(0);
    expect(existsSync(deckPath(t, body.code))).toBe(true);
  });
});

describe("documentation", () => {
  test("/openapi.json documents the live routes with their problems; the pages are routed", async () => {
    t = makeTestApp();
    const doc = (await (await t.handle("/openapi.json")).json()) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    expect(doc.paths["/api/live"]!.post!.operationId).toBe("goLive");
    expect(Object.keys(doc.paths["/api/live"]!.post!.responses)).toEqual(expect.arrayContaining(["201", "401", "403", "413", "415", "507"]));
    expect(doc.paths["/api/live/{code}"]!.get!.responses["503"]).toBeDefined();
    expect(doc.paths["/api/live/{code}/deck"]!.get!.responses["206"]).toBeDefined();
    expect(doc.paths["/api/live/{code}/end"]!.post!.responses["410"]).toBeDefined();
    expect(doc.paths["/api/live/{code}/rotate"]!.post!.operationId).toBe("rotateLiveControl");
    const schema = await t.handle("/schema/live-message.schema.json");
    expect(schema.status).toBe(200);
    expect(schema.headers.get("content-type")).toBe("application/schema+json");
  });
});

describe("quota", () => {
  test("when decks exceed --max-staged-gb (lowered at a restart), the sweep ends the oldest talks and deletes their decks", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "deckhand-live-quota-"));
    try {
      const first = makeTestApp({ dataDir });
      const deck = await makeDeck({ pages: 2 });
      const older = await live(first, deck);
      first.advance(1000);
      const newer = await live(first, deck);
      first.close();
      t = makeTestApp({ dataDir, maxStagedBytes: deck.byteLength + 10 });
      expect(await t.deps.live.sweep()).toMatchObject({ liveOverQuota: 1 });
      expect(existsSync(deckPath(t, older.code))).toBe(false);
      expect(existsSync(deckPath(t, newer.code))).toBe(true);
      expect((await t.handle(`/api/live/${older.code}`)).status).toBe(410);
      expect((await t.handle(`/api/live/${newer.code}`)).status).toBe(200);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
