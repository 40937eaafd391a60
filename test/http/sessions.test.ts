import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.8 s).
setDefaultTimeout(45_000);

let t: TestApp;
afterEach(() => t?.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const download = (app: TestApp, id: string, token?: string, headers: Record<string, string> = {}) =>
  app.handle(`/api/sessions/${id}/handoff${token === undefined ? "" : `?t=${encodeURIComponent(token)}`}`, { headers });
const complete = (app: TestApp, id: string, token?: string, body?: unknown) =>
  app.handle(`/api/sessions/${id}/handoff/complete`, {
    method: "POST",
    headers: { ...(token === undefined ? {} : { "x-controller-token": token }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

describe("GET /api/sessions/{id}/handoff", () => {
  test("takes the controller token in the x-controller-token header too, so a proxy need not log it", async () => {
    t = makeTestApp();
    const bytes = await makeDeck({ pages: 2 });
    const record = await t.present(bytes);
    const res = await download(t, record.id, undefined, { "x-controller-token": record.token });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    // The header wins over the query parameter.
    const wrong = await problemOf(await download(t, record.id, record.token, { "x-controller-token": "nope" }));
    expect([wrong.status, wrong.body.code]).toEqual([403, "TOKEN_INVALID"]);
  });

  test("streams the staged bytes with their metadata and does not consume the handoff", async () => {
    t = makeTestApp();
    const bytes = await makeDeck({ pages: 3 });
    const record = await t.present(bytes, { filename: "Tëst deck.pdf" });
    for (let i = 0; i < 2; i++) {
      const res = await download(t, record.id, record.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("x-total-slides")).toBe("3");
      expect(decodeURIComponent(res.headers.get("x-filename")!)).toBe("Tëst deck");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="T_st deck.pdf"; filename*=UTF-8''T%C3%ABst%20deck.pdf`);
      expect(res.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    }
    expect(t.row(record.id)!.state).toBe("staged");
    expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
  });

  test("answers Range requests with 206 so a broken download can resume", async () => {
    t = makeTestApp();
    const bytes = await makeDeck({ pages: 2 });
    const record = await t.present(bytes);
    let res = await download(t, record.id, record.token, { range: "bytes=100-199" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(res.headers.get("content-length")).toBe("100");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(100, 200));
    res = await download(t, record.id, record.token, { range: "bytes=500-" });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(500));
    res = await download(t, record.id, record.token, { range: "bytes=-50" });
    expect(res.headers.get("content-range")).toBe(`bytes ${bytes.length - 50}-${bytes.length - 1}/${bytes.length}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(-50));
    res = await download(t, record.id, record.token, { range: `bytes=${bytes.length}-` });
    expect((await problemOf(res)).body.code).toBe("RANGE_NOT_SATISFIABLE");
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    // Multiple ranges are not supported, and an invalid range is ignored: the whole file,
    // as RFC 9110 §14.1.1 and §14.2 say.
    for (const range of ["bytes=0-1,5-6", "bytes=5-3", "pages=1-2"]) {
      res = await download(t, record.id, record.token, { range });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
    }
  });

  test("401 without a token, 403 with a wrong one, 404 for an unknown id", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    let problem = await problemOf(await download(t, record.id));
    expect([problem.status, problem.body.code]).toEqual([401, "TOKEN_MISSING"]);
    problem = await problemOf(await download(t, record.id, ""));
    expect([problem.status, problem.body.code]).toEqual([401, "TOKEN_MISSING"]);
    // One character off (a different one whatever the token ends with).
    const wrong = `${record.token.slice(0, -1)}${record.token.endsWith("A") ? "B" : "A"}`;
    problem = await problemOf(await download(t, record.id, wrong));
    expect([problem.status, problem.body.code]).toEqual([403, "TOKEN_INVALID"]);
    problem = await problemOf(await download(t, "AAAAAAAAAAAAAAAAAAAAAA", record.token));
    expect([problem.status, problem.body.code]).toEqual([404, "SESSION_NOT_FOUND"]);
    problem = await problemOf(await download(t, "..%2F..%2Fdeckhand.db", record.token));
    expect([problem.status, problem.body.code]).toEqual([404, "SESSION_NOT_FOUND"]);
    expect(problem.contentType).toBe("application/problem+json");
  });
});

describe("POST /api/sessions/{id}/handoff/complete", () => {
  test("claims the handoff: {ok:true}, file deleted, row claimed, link dead", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    const res = await complete(t, record.id, record.token);
    expect(res.status).toBe(200);
    // The claim also hands out a live grant for this deck, valid for 2 hours.
    expect(await res.json()).toEqual({ ok: true, liveGrant: { grant: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: "2026-11-22T12:00:00Z" } });
    expect(t.stagedFiles()).toEqual([]);
    const row = t.row(record.id)!;
    expect(row.state).toBe("claimed");
    expect(row.ended_at).toBe(t.now());
    const problem = await problemOf(await download(t, record.id, record.token));
    expect([problem.status, problem.body.code]).toEqual([410, "HANDOFF_CLAIMED"]);
  });

  test("a repeated complete with the right token answers ok and changes nothing", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    expect((await complete(t, record.id, record.token)).status).toBe(200);
    const endedAt = t.row(record.id)!.ended_at;
    t.advance(5000);
    const again = await complete(t, record.id, record.token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ok: true });
    const withDigest = await complete(t, record.id, record.token, { sha256: record.sha256 });
    expect(await withDigest.json()).toMatchObject({ ok: true });
    // A repeat with another digest is not a retry of the claim: those bytes were never the deck.
    const mismatch = await problemOf(await complete(t, record.id, record.token, { sha256: "0".repeat(64) }));
    expect([mismatch.status, mismatch.body.code]).toEqual([409, "CHECKSUM_MISMATCH"]);
    expect(t.row(record.id)!.ended_at).toBe(endedAt);
    // …but not with a wrong token.
    const wrong = await problemOf(await complete(t, record.id, "nope"));
    expect([wrong.status, wrong.body.code]).toEqual([403, "TOKEN_INVALID"]);
  });

  test("a repeated complete answers the first claim's live grant — the same grant and expiry, no new grant row — and none once it has expired", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    const grants = () => {
      const db = new Database(join(t.dataDir, "deckhand.db"), { readonly: true });
      try {
        return db.query("SELECT hash, sha256, expires_at FROM live_grants").all();
      } finally {
        db.close();
      }
    };
    const first = (await (await complete(t, record.id, record.token)).json()) as { liveGrant: { grant: string; expiresAt: string } };
    expect(first.liveGrant.expiresAt).toBe("2026-11-22T12:00:00Z");
    const rows = grants();
    expect(rows).toHaveLength(1);
    // A retry after a lost answer, an hour later: the claim's grant, not two fresh hours.
    t.advance(60 * 60 * 1000);
    for (let i = 0; i < 3; i++) expect(await (await complete(t, record.id, record.token)).json()).toEqual({ ok: true, liveGrant: first.liveGrant });
    expect(grants()).toEqual(rows);
    // The grant works, for its own two hours only.
    expect((await t.deps.live.grantFor(first.liveGrant.grant))?.sha256).toBe(record.sha256);
    t.advance(60 * 60 * 1000);
    expect(await t.deps.live.grantFor(first.liveGrant.grant)).toBeNull();
    expect(await (await complete(t, record.id, record.token)).json()).toEqual({ ok: true });
    expect(grants()).toEqual(rows);
  });

  test("a matching sha256 claims; a different one is 409 and the deck stays staged", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    const problem = await problemOf(await complete(t, record.id, record.token, { sha256: "ab".repeat(32) }));
    expect([problem.status, problem.body.code]).toEqual([409, "CHECKSUM_MISMATCH"]);
    expect(t.row(record.id)!.state).toBe("staged");
    expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
    expect((await download(t, record.id, record.token)).status).toBe(200);
    const ok = await complete(t, record.id, record.token, { sha256: record.sha256.toUpperCase() });
    expect(ok.status).toBe(200);
    expect(t.stagedFiles()).toEqual([]);
  });

  test("a malformed body is a 400 and claims nothing", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    for (const body of ["{not json", { sha256: "xyz" }, { sha256: record.sha256, extra: 1 }, "[1]"]) {
      const problem = await problemOf(await complete(t, record.id, record.token, body));
      expect([problem.status, problem.body.code]).toEqual([400, "BAD_REQUEST"]);
    }
    expect(t.row(record.id)!.state).toBe("staged");
  });

  test("the caller is checked before the body is read, and a body over 4 KiB is refused unread", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    // Garbage without a token is a token problem, not a body problem.
    expect((await problemOf(await complete(t, record.id, undefined, "{garbage"))).body.code).toBe("TOKEN_MISSING");
    expect((await problemOf(await complete(t, "CCCCCCCCCCCCCCCCCCCCCC", record.token, "{garbage"))).body.code).toBe("SESSION_NOT_FOUND");
    let pulled = 0;
    const endless = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
        if (pulled > 100_000) controller.close();
      },
    });
    const res = await t.handle(`/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": record.token, "content-type": "application/json" },
      body: endless,
    });
    expect((await problemOf(res)).body.code).toBe("BAD_REQUEST");
    expect(pulled).toBeLessThan(20);
    const declared = await t.handle(`/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": record.token, "content-length": String(10 * 1024 * 1024) },
      body: new ReadableStream({ start: (c) => c.close() }),
    });
    expect((await problemOf(declared)).body.code).toBe("BAD_REQUEST");
    expect(t.row(record.id)!.state).toBe("staged");
  });

  test("token errors: 401 missing, 403 wrong, 404 unknown", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    expect((await problemOf(await complete(t, record.id))).body.code).toBe("TOKEN_MISSING");
    expect((await problemOf(await complete(t, record.id, "x".repeat(43)))).body.code).toBe("TOKEN_INVALID");
    expect((await problemOf(await complete(t, "BBBBBBBBBBBBBBBBBBBBBB", record.token))).body.code).toBe("SESSION_NOT_FOUND");
    expect(t.row(record.id)!.state).toBe("staged");
  });
});

describe("expiry", () => {
  test("an anonymous handoff expires after 24 h at every access, before the sweeper runs", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    t.advance(DAY - 1000);
    expect((await download(t, record.id, record.token)).status).toBe(200);
    t.advance(1000);
    let problem = await problemOf(await download(t, record.id, record.token));
    expect([problem.status, problem.body.code]).toEqual([410, "HANDOFF_EXPIRED"]);
    problem = await problemOf(await complete(t, record.id, record.token));
    expect([problem.status, problem.body.code]).toEqual([410, "HANDOFF_EXPIRED"]);
    // Not claimed by the failed complete.
    expect(t.row(record.id)!.state).toBe("staged");
  });

  test("an authenticated handoff lives 7 days", async () => {
    t = makeTestApp();
    const { token } = await t.deps.accessTokens.create("ci");
    const record = await t.present(await makeDeck(), { token });
    t.advance(DAY + HOUR);
    expect((await download(t, record.id, record.token)).status).toBe(200);
    t.advance(6 * DAY);
    expect((await problemOf(await download(t, record.id, record.token))).body.code).toBe("HANDOFF_EXPIRED");
  });

  test("the sweeper deletes expired bytes, keeps a 410 tombstone for 7 days, then forgets", async () => {
    t = makeTestApp();
    const expiring = await t.present(await makeDeck());
    t.advance(12 * HOUR);
    const fresh = await t.present(await makeDeck());
    t.advance(12 * HOUR);
    expect(await t.deps.handoff.sweep()).toMatchObject({ expired: 1, purgedTombstones: 0 });
    expect(t.stagedFiles()).toEqual([`${fresh.id}.pdf`]);
    const row = t.row(expiring.id)!;
    expect(row.state).toBe("expired");
    expect(row.ended_at).toBe(row.expires_at);
    expect((await problemOf(await download(t, expiring.id, expiring.token))).body.code).toBe("HANDOFF_EXPIRED");
    t.advance(7 * DAY + 1000);
    expect(await t.deps.handoff.sweep()).toMatchObject({ expired: 1, purgedTombstones: 1 });
    expect(t.row(expiring.id)).toBeNull();
    expect((await problemOf(await download(t, expiring.id, expiring.token))).body.code).toBe("SESSION_NOT_FOUND");
    // By now the younger handoff has expired too.
    expect((await problemOf(await download(t, fresh.id, fresh.token))).body.code).toBe("HANDOFF_EXPIRED");
  });

  test("the sweeper removes temp leftovers and files without a row, but not uploads in flight", async () => {
    t = makeTestApp();
    const record = await t.present(await makeDeck());
    const staged = join(t.dataDir, "staged");
    writeFileSync(join(staged, "leftover.tmp"), "partial");
    writeFileSync(join(staged, "AAAAAAAAAAAAAAAAAAAAAA.pdf"), "%PDF-orphan");
    const inFlight = t.deps.blobs.createTemp();
    writeFileSync(inFlight.path, "still uploading");
    expect(await t.deps.handoff.sweep()).toMatchObject({ removedTemps: 1, removedOrphans: 1 });
    expect(t.stagedFiles()).toEqual([`${record.id}.pdf`, inFlight.path.split("/").pop()!].sort());
    await inFlight.discard();
    expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
  });
});

describe("Content-Disposition", () => {
  test("carries an ASCII fallback and the exact name per RFC 8187", async () => {
    const { contentDisposition } = await import("../../src/http/sessions.ts");
    expect(contentDisposition("Q3 (final) it's *done*.pdf")).toBe(
      `attachment; filename="Q3 (final) it's *done*.pdf"; filename*=UTF-8''Q3%20%28final%29%20it%27s%20%2Adone%2A.pdf`,
    );
    expect(contentDisposition('say "hi" 100% 日本.pdf')).toBe(
      `attachment; filename="say _hi_ 100_ __.pdf"; filename*=UTF-8''say%20%22hi%22%20100%25%20%E6%97%A5%E6%9C%AC.pdf`,
    );
  });
});

describe("missing bytes", () => {
  test("a staged row whose file vanished is a logged 500 problem that leaks neither token nor path", async () => {
    const lines: string[] = [];
    const { jsonLogger } = await import("../../src/base/log.ts");
    t = makeTestApp({}, { logger: jsonLogger((l) => lines.push(l)) });
    const record = await t.present(await makeDeck());
    rmSync(join(t.dataDir, "staged", `${record.id}.pdf`));
    const res = await download(t, record.id, record.token);
    const problem = await problemOf(res);
    expect([problem.status, problem.contentType, problem.body.code]).toEqual([500, "application/problem+json", "INTERNAL"]);
    const text = JSON.stringify(problem.body);
    expect(text).not.toContain(record.token);
    expect(text).not.toContain(t.dataDir);
    expect(lines.join("")).toContain("are missing");
    expect(lines.join("")).not.toContain(record.token);
  });
});

describe("problem documents", () => {
  test("unknown routes are 404 problems; no response carries a stack or a path", async () => {
    t = makeTestApp();
    const res = await t.handle("/nope");
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ status: 404, contentType: "application/problem+json" });
    expect(problem.body).toMatchObject({ code: "NOT_FOUND", status: 404, title: "Not found" });
    expect(problem.body.type).toBe("https://deckhand.dev/problems/not-found");
    expect(problem.body.requestId).toBe(res.headers.get("x-request-id")!);
  });

  test("an unexpected failure is a 500 INTERNAL whose cause goes only to the log", async () => {
    const lines: string[] = [];
    const { jsonLogger } = await import("../../src/base/log.ts");
    t = makeTestApp({}, { logger: jsonLogger((l) => lines.push(l)) });
    const record = await t.present(await makeDeck());
    // Break the store under the running app: the database goes away.
    (t.deps.handoff as unknown as { deps: { sessions: { get: () => never } } }).deps.sessions.get = () => {
      throw new Error(`SQLITE_CORRUPT at ${t.dataDir}/deckhand.db`);
    };
    const res = await download(t, record.id, record.token);
    const problem = await problemOf(res);
    expect(problem.status).toBe(500);
    expect(problem.body.code).toBe("INTERNAL");
    expect(JSON.stringify(problem.body)).not.toContain(t.dataDir);
    expect(JSON.stringify(problem.body)).not.toContain("SQLITE");
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.event === "request_failed");
    expect(logged.requestId).toBe(problem.body.requestId);
    expect(logged.message).toContain("SQLITE_CORRUPT");
  });
});
