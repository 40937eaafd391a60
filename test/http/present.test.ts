import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeDeck, makeEmptyPdf, makeEncryptedDeck, makeLoopingPageTree } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp, withDeclaredLength } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (14 s).
setDefaultTimeout(150_000);

let t: TestApp;
afterEach(() => t?.close());

const HOUR = 3_600_000;

async function expectNothingLeft(app: TestApp) {
  expect(app.stagedFiles()).toEqual([]);
  expect((await app.deps.handoff.sweep()).removedOrphans).toBe(0);
}

describe("POST /api/present", () => {
  test("stages the PDF and returns the full handoff record", async () => {
    t = makeTestApp();
    const bytes = await makeDeck({ pages: 4 });
    const res = await t.upload(bytes, { filename: "Q3 review.pdf" });
    expect(res.status).toBe(200);
    const record = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(["bytes", "expiresAt", "filename", "id", "next", "sha256", "totalSlides", "url"]);
    expect(record.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(record.filename).toBe("Q3 review");
    expect(record.totalSlides).toBe(4);
    expect(record.bytes).toBe(bytes.length);
    expect(record.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(record.expiresAt).toBe("2026-11-23T10:00:00Z");
    expect(record.next).toBe('Open url in a browser to present "Q3 review" (4 slides). The link works once and expires at 2026-11-23T10:00:00Z.');
    // The controller token rides in the fragment, never in the path or query.
    const url = new URL(String(record.url));
    expect(url.origin).toBe("http://deckhand.test");
    expect(url.pathname).toBe(`/start/${record.id}`);
    expect(url.search).toBe("");
    expect(url.hash).toMatch(/^#t=[A-Za-z0-9_-]{43}$/);
    // Side effects: the bytes on disk and a staged row storing only the token's hash.
    expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
    expect(await Bun.file(join(t.dataDir, "staged", `${record.id}.pdf`)).bytes()).toEqual(bytes);
    const row = t.row(String(record.id))!;
    expect(row.state).toBe("staged");
    expect(row.authenticated).toBe(0);
    expect(row.token_hash).toBe(createHash("sha256").update(url.hash.slice(3)).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(url.hash.slice(3));
  });

  test("uses --base-url for links when set", async () => {
    t = makeTestApp({ baseUrl: "https://decks.example.org/sub" });
    const record = await t.present(await makeDeck());
    expect(record.url.startsWith("https://decks.example.org/sub/start/")).toBe(true);
  });

  test("honours X-Forwarded-Proto/Host only with --trust-proxy", async () => {
    t = makeTestApp();
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "talks.example.org" };
    let res = await t.upload(await makeDeck(), { headers });
    expect(String(((await res.json()) as { url: string }).url)).toStartWith("http://deckhand.test/start/");
    t.close();
    t = makeTestApp({ trustProxy: true });
    res = await t.upload(await makeDeck(), { headers });
    expect(String(((await res.json()) as { url: string }).url)).toStartWith("https://talks.example.org/start/");
  });

  test("behind a trusted proxy the rate limit keys on the rightmost X-Forwarded-For entry", async () => {
    t = makeTestApp({ trustProxy: true, rateLimit: 2 });
    const deck = await makeDeck();
    const statuses: number[] = [];
    // The client controls everything left of what our proxy appended.
    for (let i = 0; i < 4; i++) statuses.push((await t.upload(deck, { headers: { "x-forwarded-for": `10.0.0.${i}, 203.0.113.9` } })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await t.upload(deck, { headers: { "x-forwarded-for": "203.0.113.10" } })).status).toBe(200);
  });

  test("a valid Bearer token gives the 7-day lifetime", async () => {
    t = makeTestApp();
    const { token } = await t.deps.accessTokens.create("ci");
    const record = await t.present(await makeDeck(), { token });
    expect(record.expiresAt).toBe("2026-11-29T10:00:00Z");
    expect(t.row(record.id)!.authenticated).toBe(1);
  });

  test("an unknown or revoked Bearer token is a 401, never an anonymous upload", async () => {
    t = makeTestApp();
    const created = await t.deps.accessTokens.create("old");
    await t.deps.accessTokens.revoke("old");
    for (const token of ["dh_not-a-real-token", created.token]) {
      const res = await t.upload(await makeDeck(), { token });
      const problem = await problemOf(res);
      expect(problem.status).toBe(401);
      expect(problem.body.code).toBe("UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
    const malformed = await t.upload(await makeDeck(), { headers: { authorization: "Basic abc" } });
    expect(malformed.status).toBe(401);
    await expectNothingLeft(t);
  });

  test("--require-auth refuses anonymous uploads and accepts a token", async () => {
    t = makeTestApp({ requireAuth: true });
    const res = await t.upload(await makeDeck());
    expect((await problemOf(res)).body.code).toBe("UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="deckhand"');
    const { token } = await t.deps.accessTokens.create(null);
    expect((await t.upload(await makeDeck(), { token })).status).toBe(200);
  });

  test("rate-limits anonymous uploads per address with Retry-After; tokens bypass it", async () => {
    t = makeTestApp({ rateLimit: 2 });
    const deck = await makeDeck();
    expect((await t.upload(deck)).status).toBe(200);
    expect((await t.upload(deck, { path: "/api/check" })).status).not.toBe(429);
    const limited = await t.upload(deck);
    expect((await problemOf(limited)).body.code).toBe("RATE_LIMITED");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const { token } = await t.deps.accessTokens.create(null);
    expect((await t.upload(deck, { token })).status).toBe(200);
    t.advance(61_000);
    expect((await t.upload(deck)).status).toBe(200);
  });

  test("507 STORAGE_FULL when staged bytes would exceed the quota, leaving nothing behind", async () => {
    const deck = await makeDeck({ padToBytes: 40_000 });
    t = makeTestApp({ maxStagedBytes: deck.length + 1000 });
    expect((await t.upload(deck)).status).toBe(200);
    const res = await t.upload(deck);
    expect((await problemOf(res)).body.code).toBe("STORAGE_FULL");
    expect(res.status).toBe(507);
    expect(t.stagedFiles()).toHaveLength(1);
  });
});

describe("POST /api/present — server-side failures", () => {
  test("a disk error while receiving is the server's 500 (logged), not the client's 400", async () => {
    const lines: string[] = [];
    const { jsonLogger } = await import("../../src/base/log.ts");
    t = makeTestApp({}, { logger: jsonLogger((l) => lines.push(l)) });
    const blobs = t.deps.blobs as unknown as { createTemp: () => { path: string; discard(): void } };
    blobs.createTemp = () => ({ path: join(t.dataDir, "no-such-dir", "upload.tmp"), discard() {} });
    const problem = await problemOf(await t.upload(await makeDeck()));
    expect([problem.status, problem.body.code]).toEqual([500, "INTERNAL"]);
    expect(JSON.stringify(problem.body)).not.toContain(t.dataDir);
    expect(lines.join("")).toContain("ENOENT");
  });

  test("a full disk (the OS's or SQLite's) is 507 STORAGE_FULL", async () => {
    const { storageFailure } = await import("../../src/base/errors.ts");
    const full = Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    expect(storageFailure(full)).toMatchObject({ code: "STORAGE_FULL", status: 507 });
    expect(storageFailure(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toMatchObject({ code: "STORAGE_FULL", status: 507 });
    expect(storageFailure(Object.assign(new Error("io"), { code: "EIO" }))).toMatchObject({ code: "INTERNAL", status: 500 });
  });
});

for (const declared of [false, true]) {
  describe(`POST /api/present — bad input, ${declared ? "sent with its length (received whole)" : "streamed"}`, () => {
    /** The request as sent: streamed, or serialised with its Content-Length (upload/receive's two paths). */
    const send = async (path: string, init: RequestInit) => t.handle(path, declared ? await withDeclaredLength(init) : init);

    const cases: Array<{ name: string; make: () => Promise<{ bytes: Uint8Array | string; filename?: string; type?: string }>; status: number; code: string }> = [
      { name: "empty file", make: async () => ({ bytes: new Uint8Array(0) }), status: 415, code: "NOT_A_PDF" },
      { name: "garbage bytes", make: async () => ({ bytes: crypto.getRandomValues(new Uint8Array(4096)) }), status: 415, code: "NOT_A_PDF" },
      { name: "HTML named .pdf", make: async () => ({ bytes: "<!doctype html><title>x</title><p>hello", filename: "deck.pdf", type: "application/pdf" }), status: 415, code: "NOT_A_PDF" },
      { name: "fake header only", make: async () => ({ bytes: "%PDF-1.7\nthis is not a pdf" }), status: 422, code: "PDF_UNREADABLE" },
      { name: "truncated", make: async () => ({ bytes: (await makeDeck({ pages: 5 })).slice(0, 200) }), status: 422, code: "PDF_UNREADABLE" },
      { name: "encrypted with a user password", make: async () => ({ bytes: await makeEncryptedDeck() }), status: 422, code: "PDF_ENCRYPTED" },
      { name: "zero pages", make: async () => ({ bytes: await makeEmptyPdf() }), status: 422, code: "PDF_NO_PAGES" },
      { name: "over 3000 pages", make: async () => ({ bytes: await makeDeck({ pages: 3001 }) }), status: 422, code: "TOO_MANY_PAGES" },
      // The rule /api/check applies too (deck/accept): a page nobody can reach is damage.
      { name: "a page tree that loops", make: async () => ({ bytes: makeLoopingPageTree() }), status: 422, code: "PDF_UNREADABLE" },
    ];
    for (const c of cases) {
      test(`${c.name} → ${c.status} ${c.code}, nothing left behind`, async () => {
        t = makeTestApp();
        const input = await c.make();
        const res = await t.upload(input.bytes, { ...input, declared });
        const problem = await problemOf(res);
        expect(problem.status).toBe(c.status);
        expect(problem.contentType).toBe("application/problem+json");
        expect(problem.body.code).toBe(c.code);
        expect(problem.body.status).toBe(c.status);
        expect(String(problem.body.detail).length).toBeGreaterThan(20);
        expect(JSON.stringify(problem.body)).not.toContain(t.dataDir);
        await expectNothingLeft(t);
        // The server keeps serving.
        expect((await t.handle("/healthz")).status).toBe(200);
      });
    }

    test("more than 20 parts before the file part is a 400 that says so, not FILE_MISSING", async () => {
      t = makeTestApp();
      const form = new FormData();
      for (let i = 0; i < 25; i++) form.append(`field${i}`, "x");
      form.append("file", new Blob([await makeDeck()], { type: "application/pdf" }), "deck.pdf");
      const problem = await problemOf(await send("/api/present", { method: "POST", body: form }));
      expect([problem.status, problem.body.code]).toEqual([400, "BAD_REQUEST"]);
      expect(String(problem.body.detail)).toContain("too many parts");
      await expectNothingLeft(t);
    });

    test("a PDF named .txt with a text/plain type is still a PDF: the bytes decide", async () => {
      t = makeTestApp();
      const res = await t.upload(await makeDeck({ pages: 2 }), { filename: "notes.txt", type: "text/plain", declared });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { filename: string }).filename).toBe("notes.txt");
    });

    test("a declared length over the limit is refused before the body is read", async () => {
      t = makeTestApp({ maxUploadBytes: 10_000 });
      let pulled = 0;
      const body = new ReadableStream({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
          if (pulled > 1000) controller.close();
        },
      });
      const res = await t.handle("/api/present", {
        method: "POST",
        body,
        headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * 1024 * 1024 * 1024) },
      });
      expect((await problemOf(res)).body.code).toBe("FILE_TOO_LARGE");
      expect(res.status).toBe(413);
      expect(pulled).toBeLessThan(5);
      await expectNothingLeft(t);
    });

    test("an upload that streams past the limit is cut off with 413 and its temp file removed", async () => {
      t = makeTestApp({ maxUploadBytes: 20_000 });
      const res = await t.upload(await makeDeck({ padToBytes: 100_000 }), { declared });
      expect(res.status).toBe(413);
      expect((await res.json()).code).toBe("FILE_TOO_LARGE");
      expect(t.stagedFiles()).toEqual([]);
    });

    test("no file part → 400 FILE_MISSING; not multipart → 400 BAD_REQUEST; malformed multipart → 400", async () => {
      t = makeTestApp();
      const form = new FormData();
      form.append("other", "value");
      let res = await send("/api/present", { method: "POST", body: form });
      expect((await problemOf(res)).body.code).toBe("FILE_MISSING");
      const wrongField = new FormData();
      wrongField.append("pdf", new Blob([await makeDeck()]), "deck.pdf");
      res = await send("/api/present", { method: "POST", body: wrongField });
      expect((await problemOf(res)).body.code).toBe("FILE_MISSING");
      res = await send("/api/present", { method: "POST", body: await makeDeck(), headers: { "content-type": "application/pdf" } });
      expect((await problemOf(res)).body.code).toBe("BAD_REQUEST");
      res = await send("/api/present", {
        method: "POST",
        body: "--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.4 cut off",
        headers: { "content-type": "multipart/form-data; boundary=xyz" },
      });
      expect((await problemOf(res)).status).toBe(400);
      await expectNothingLeft(t);
    });

    test("control characters in a raw multipart filename are stripped from the title and headers", async () => {
      t = makeTestApp();
      const deck = await makeDeck({ pages: 1 });
      const head = `--b0undary\r\nContent-Disposition: form-data; name="file"; filename="evil\u0001\tname\u001b.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
      const body = new Blob([head, deck as BlobPart, "\r\n--b0undary--\r\n"]);
      const res = await send("/api/present", { method: "POST", body, headers: { "content-type": "multipart/form-data; boundary=b0undary" } });
      expect(res.status).toBe(200);
      const record = (await res.json()) as { filename: string; id: string; url: string };
      expect(record.filename).toBe("evilname");
    });

    const names: Array<[string, string]> = [
      ["../../etc/passwd.pdf", "passwd"],
      ["C:\\Users\\me\\Talk.PDF", "Talk"],
      ["report\u202Efdp.exe.pdf", "reportfdp.exe"],
      ["\u0000\u0007bell.pdf", "bell"],
      ["עברית RTL.pdf", "עברית RTL"],
      [".pdf", "presentation"],
      ["..", "presentation"],
      ["", "presentation"],
    ];
    for (const [name, title] of names) {
      test(`hostile file name ${JSON.stringify(name)} → title ${JSON.stringify(title)}`, async () => {
        t = makeTestApp();
        const record = await t.present(await makeDeck({ pages: 1 }), { filename: name, declared });
        expect(record.filename).toBe(title);
        // Only `<id>.pdf` files are ever written, whatever the name.
        expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
        expect(existsSync(join(t.dataDir, "etc"))).toBe(false);
        // The download headers stay single-line and safe.
        const res = await t.handle(`/api/sessions/${record.id}/handoff?t=${record.token}`);
        expect(res.headers.get("x-filename")).toBe(encodeURIComponent(title));
        const { contentDisposition } = await import("../../src/http/sessions.ts");
        expect(res.headers.get("content-disposition")).toBe(contentDisposition(`${title}.pdf`));
        expect(res.headers.get("content-disposition")).not.toMatch(/[\r\n]/);
      });
    }
  });
}
