/**
 * A notes file beside a live talk's deck, through the REST API (app.handle(), real SQLite,
 * real files, real mupdf workers): the `notes` part of POST /api/live, judged as present judges
 * it (same problems, nothing left behind); GET /api/live/{code}/notes for the phone remote's
 * control secret or the presenter secret — in a header only, never to a viewer — with wrong
 * secrets counted per address and talk; 404 LIVE_NOTES_NOT_FOUND for a talk without notes; and
 * the notes text deleted with the deck when the talk ends or expires (410 from then on).
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readNotesFile } from "../../src/deck/notes-file/index.ts";
import { LIVE_JOIN_FAILURES_PER_MINUTE } from "../../src/live/join-guard.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp } from "../helpers/app.ts";
import { expectOnlyDecks, notAPptxZip, type Part, pdfpcFile, pptxFile, rowCount, sendWithNotes, zipBombPptx } from "./notes-fixtures.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4 s).
setDefaultTimeout(45_000);

let t: TestApp;
afterEach(() => t?.close());

const URL_NOTE = "https://www.example.org/article135_3818.html";

interface LiveBody {
  code: string;
  controlUrl: string;
  presenterSecret: string;
  notes?: { filename: string; kind: string; slides: number; warnings: Array<{ code: string; message: string }> };
}

/** A PowerPoint file for a 3-page deck: notes on slides 1 and 3, the third with a link. */
const pptx = (): Part => ({ bytes: pptxFile({ slides: ["Open with the story", null, `Read ${URL_NOTE}`] }), filename: "Quarterly notes.pptx" });

async function goLive(app: TestApp, pdf: Uint8Array, notes: Part | null, options: { declared?: boolean } = {}): Promise<LiveBody> {
  const res = await sendWithNotes(app, "/api/live", pdf, notes, { filename: "Q3 review.pdf", ...options });
  expect(res.status).toBe(201);
  return (await res.json()) as LiveBody;
}

const controlSecretOf = (body: LiveBody) => new URL(body.controlUrl).hash.slice(1);

const notesRoute = (app: TestApp, code: string, headers: Record<string, string> = {}, query = "") => app.handle(`/api/live/${code}/notes${query}`, { headers });

/** The live row's notes columns, read straight from the database. */
function notesColumns(app: TestApp, code: string): Record<string, unknown> | null {
  const db = new Database(join(app.dataDir, "deckhand.db"), { readonly: true });
  try {
    return db.query("SELECT notes_filename, notes_kind, notes_slides, notes_pdfpc FROM live_sessions WHERE code = ?").get(code) as Record<string, unknown> | null;
  } finally {
    db.close();
  }
}

describe("the notes part of POST /api/live", () => {
  for (const declared of [false, true]) {
    test(`${declared ? "received whole" : "streamed"}: a .pptx is judged, described in the answer, kept normalised with the talk; staged/ holds only the deck`, async () => {
      t = makeTestApp();
      const part = pptx();
      const body = await goLive(t, await makeDeck({ pages: 3 }), part, { declared });
      expect(body.notes).toEqual({ filename: "Quarterly notes.pptx", kind: "pptx", slides: 2, warnings: [] });
      const expected = readNotesFile(part.bytes as Uint8Array, part.filename, 3).pdfpc;
      expect(notesColumns(t, body.code)).toEqual({ notes_filename: "Quarterly notes.pptx", notes_kind: "pptx", notes_slides: 2, notes_pdfpc: expected });
      await expectOnlyDecks(t, [`live-${body.code}`]);
      // The public facts say there are notes — never what they say.
      const info = await t.handle(`/api/live/${body.code}`);
      const text = await info.text();
      expect(JSON.parse(text)).toMatchObject({ notes: true });
      expect(text).not.toContain("Open with the story");
    });
  }

  test("without a notes part: no notes on the row, `notes: false`, and the notes route is 404 LIVE_NOTES_NOT_FOUND for the remote", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 2 }), null);
    expect(body.notes).toBeUndefined();
    expect(notesColumns(t, body.code)).toEqual({ notes_filename: null, notes_kind: null, notes_slides: null, notes_pdfpc: null });
    expect(await (await t.handle(`/api/live/${body.code}`)).json()).toMatchObject({ notes: false });
    const none = await problemOf(await notesRoute(t, body.code, { "x-control-secret": controlSecretOf(body) }));
    expect([none.status, none.contentType, none.body.code]).toEqual([404, "application/problem+json", "LIVE_NOTES_NOT_FOUND"]);
    expect(String(none.body.detail)).toContain("go live again");
    // A wrong secret is refused before anything about notes is said.
    const wrong = await problemOf(await notesRoute(t, body.code, { "x-control-secret": "x".repeat(43) }));
    expect([wrong.status, wrong.body.code]).toEqual([403, "LIVE_SECRET_INVALID"]);
  });

  test("a .pptx with more slides than the PDF goes live with its warning", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 2 }), { bytes: pptxFile({ slides: ["one", "two", "three"] }), filename: "longer.pptx" });
    const expected = readNotesFile(pptxFile({ slides: ["one", "two", "three"] }), "longer.pptx", 2);
    expect(body.notes?.warnings.map((w) => w.code)).toEqual(expected.issues.filter((i) => i.level === "warning").map((i) => i.code));
    expect(body.notes!.warnings.length).toBeGreaterThan(0);
  });

  const bad: Array<{ name: string; part: () => Part; status: number; code: string; config?: { maxUploadBytes: number } }> = [
    { name: "garbage bytes", part: () => ({ bytes: crypto.getRandomValues(new Uint8Array(4096)), filename: "notes.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
    { name: "a zip that is not a presentation", part: () => ({ bytes: notAPptxZip(), filename: "notes.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
    { name: "a zip bomb", part: () => ({ bytes: zipBombPptx(), filename: "bomb.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
    { name: "a .pdfpc whose notes name a slide the PDF lacks", part: () => ({ bytes: pdfpcFile({ 9: "too far" }), filename: "talk.pdfpc" }), status: 422, code: "NOTES_FILE_INVALID" },
    { name: "a notes part over its limit", part: () => ({ bytes: new Uint8Array(100 * 1024).fill(32), filename: "big.pptx" }), status: 413, code: "NOTES_FILE_TOO_LARGE", config: { maxUploadBytes: 64 * 1024 } },
  ];
  for (const c of bad) {
    test(`${c.name} → ${c.status} ${c.code}, as present answers it; no talk, no file`, async () => {
      t = makeTestApp(c.config ?? {});
      const pdf = await makeDeck({ pages: 2 });
      const part = c.part();
      const problem = await problemOf(await sendWithNotes(t, "/api/live", pdf, part));
      expect([problem.status, problem.contentType, problem.body.code]).toEqual([c.status, "application/problem+json", c.code]);
      // The very answer POST /api/present gives for the same parts (another server, same rules).
      const present = makeTestApp(c.config ?? {});
      try {
        const same = await problemOf(await sendWithNotes(present, "/api/present", pdf, part));
        expect([same.status, same.body.code, same.body.detail]).toEqual([problem.status, problem.body.code, problem.body.detail]);
      } finally {
        present.close();
      }
      expect(rowCount(t, "live_sessions")).toBe(0);
      await expectOnlyDecks(t, []);
    });
  }
});

describe("GET /api/live/{code}/notes", () => {
  test("the remote's control secret and the presenter secret get the normalised .pdfpc, in a header only, never cached", async () => {
    t = makeTestApp();
    const part = pptx();
    const body = await goLive(t, await makeDeck({ pages: 3 }), part);
    const expected = readNotesFile(part.bytes as Uint8Array, part.filename, 3).pdfpc!;
    for (const headers of [{ "x-control-secret": controlSecretOf(body) }, { "x-presenter-secret": body.presenterSecret }] as Record<string, string>[]) {
      const res = await notesRoute(t, body.code, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(decodeURIComponent(res.headers.get("x-notes-filename")!)).toBe("Quarterly notes.pptx");
      expect([res.headers.get("x-notes-kind"), res.headers.get("x-notes-slides")]).toEqual(["pptx", "2"]);
      const text = await res.text();
      expect(text).toBe(expected);
      const doc = JSON.parse(text) as { pdfpcFormat: number; pages: Array<{ idx: number; note?: string }> };
      expect(doc.pdfpcFormat).toBe(2);
      expect(doc.pages.filter((p) => p.note).map((p) => [p.idx, p.note])).toEqual([
        [0, "Open with the story"],
        [2, `Read ${URL_NOTE}`],
      ]);
    }
    // The presenter secret wins when both are sent (a wrong control secret beside it changes nothing).
    expect((await notesRoute(t, body.code, { "x-presenter-secret": body.presenterSecret, "x-control-secret": "wrong" })).status).toBe(200);
  });

  test("viewers get nothing: no secret is 401, a secret in the query string is no secret, the control secret is not the presenter's", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 3 }), pptx());
    const none = await problemOf(await notesRoute(t, body.code));
    expect([none.status, none.body.code]).toEqual([401, "LIVE_SECRET_MISSING"]);
    expect(String(none.body.detail)).toContain("x-control-secret");
    for (const query of [`?secret=${controlSecretOf(body)}`, `?t=${controlSecretOf(body)}`]) {
      expect((await notesRoute(t, body.code, {}, query)).status).toBe(401);
    }
    // A remote's secret does not open the presenter's doors, nor the presenter's the remote's link.
    const asPresenter = await problemOf(await notesRoute(t, body.code, { "x-presenter-secret": controlSecretOf(body) }));
    expect([asPresenter.status, asPresenter.body.code]).toEqual([403, "LIVE_SECRET_INVALID"]);
    // What a viewer can reach: the facts and the PDF, neither with the notes' words.
    const info = await (await t.handle(`/api/live/${body.code}`)).text();
    const deck = Buffer.from(await (await t.handle(`/api/live/${body.code}/deck`)).arrayBuffer()).toString("latin1");
    for (const text of [info, deck]) expect(text).not.toContain("Open with the story");
  });

  test("wrong secrets count per address and talk: past the limit that address is refused the notes (429) even with the right secret, still watches, and others are not affected", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 3 }), pptx());
    const right = { "x-control-secret": controlSecretOf(body) };
    t.deps.peerAddress = () => "198.51.100.9";
    for (let i = 0; i < LIVE_JOIN_FAILURES_PER_MINUTE; i++) expect((await notesRoute(t, body.code, { "x-control-secret": `wrong-${i}` })).status).toBe(403);
    expect((await notesRoute(t, body.code, { "x-control-secret": "one-more" })).status).toBe(403);
    const limited = await problemOf(await notesRoute(t, body.code, right));
    expect([limited.status, limited.body.code]).toEqual([429, "RATE_LIMITED"]);
    // The same count guards the presenter's doors of this talk.
    expect((await t.handle(`/api/live/${body.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } })).status).toBe(429);
    // It still follows the talk as a viewer.
    expect((await t.handle(`/api/live/${body.code}`)).status).toBe(200);
    t.deps.peerAddress = () => "192.0.2.7";
    expect((await notesRoute(t, body.code, right)).status).toBe(200);
    // The block ends with its window.
    t.advance(61_000);
    t.deps.peerAddress = () => "198.51.100.9";
    expect((await notesRoute(t, body.code, right)).status).toBe(200);
  });

  test("a renewed remote link: the old control secret is refused, the new one gets the notes", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 3 }), pptx());
    const rotated = await t.handle(`/api/live/${body.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } });
    const { controlUrl } = (await rotated.json()) as { controlUrl: string };
    expect((await notesRoute(t, body.code, { "x-control-secret": controlSecretOf(body) })).status).toBe(403);
    expect((await notesRoute(t, body.code, { "x-control-secret": new URL(controlUrl).hash.slice(1) })).status).toBe(200);
  });

  test("the end deletes the notes with the deck: 410 LIVE_ENDED, the text gone from the row, no file left", async () => {
    t = makeTestApp();
    const body = await goLive(t, await makeDeck({ pages: 3 }), pptx());
    const headers = { "x-control-secret": controlSecretOf(body) };
    expect((await notesRoute(t, body.code, headers)).status).toBe(200);
    const ended = await t.handle(`/api/live/${body.code}/end`, { method: "POST", headers: { "x-presenter-secret": body.presenterSecret } });
    expect(ended.status).toBe(200);
    const gone = await problemOf(await notesRoute(t, body.code, headers));
    expect([gone.status, gone.body.code]).toEqual([410, "LIVE_ENDED"]);
    expect(notesColumns(t, body.code)).toMatchObject({ notes_filename: "Quarterly notes.pptx", notes_pdfpc: null });
    expect(await t.deps.live.repo.notesText(body.code)).toBeNull();
    expect(existsSync(join(t.dataDir, "staged", `live-${body.code}.pdf`))).toBe(false);
    await expectOnlyDecks(t, []);
  });

  test("past --live-ttl: 410 at once, and the sweep's end clears the text too", async () => {
    t = makeTestApp({ liveTtlMs: 60 * 60 * 1000, livePresenterGraceMs: 2 * 60 * 60 * 1000 });
    const first = await goLive(t, await makeDeck({ pages: 3 }), pptx());
    const second = await goLive(t, await makeDeck({ pages: 3, title: "second" }), pptx());
    t.advance(61 * 60 * 1000);
    // Asked after expiry, before any sweep: ended on the spot.
    const gone = await problemOf(await notesRoute(t, first.code, { "x-control-secret": controlSecretOf(first) }));
    expect([gone.status, gone.body.code]).toEqual([410, "LIVE_ENDED"]);
    expect(notesColumns(t, first.code)?.notes_pdfpc).toBeNull();
    // Nobody asked about the other: the sweep ends it, its notes text with it.
    expect(notesColumns(t, second.code)?.notes_pdfpc).not.toBeNull();
    expect(await t.deps.live.sweep()).toMatchObject({ liveExpired: 1 });
    expect(notesColumns(t, second.code)?.notes_pdfpc).toBeNull();
    await expectOnlyDecks(t, []);
  });
});

test("/openapi.json documents the notes part of going live, the notes route with its secrets and problems, and LiveInfo's `notes`", async () => {
  t = makeTestApp();
  type Operation = { operationId: string; security?: unknown[]; parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: unknown; encoding?: Record<string, unknown> }> }; responses: Record<string, unknown> };
  const doc = (await (await t.handle("/openapi.json")).json()) as { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { in?: string; name?: string }> } };
  const goLive = doc.paths["/api/live"]!.post!;
  const form = goLive.requestBody!.content["multipart/form-data"]!;
  expect(Object.keys(form.encoding!)).toEqual(["file", "notes"]);
  expect(JSON.stringify(form.schema)).toContain('"notes"');
  expect(Object.keys(goLive.responses)).toEqual(expect.arrayContaining(["201", "413", "422"]));
  const notes = doc.paths["/api/live/{code}/notes"]!.get!;
  expect(notes.operationId).toBe("getLiveNotes");
  expect(notes.security).toEqual([{ controlSecret: [] }, { presenterSecret: [] }]);
  expect(doc.components.securitySchemes.controlSecret).toMatchObject({ in: "header", name: "x-control-secret" });
  expect(notes.parameters?.filter((p) => p.in === "header").map((p) => p.name).sort()).toEqual(["x-control-secret", "x-presenter-secret"]);
  expect(Object.keys(notes.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "404", "410", "429"]));
  expect(JSON.stringify(notes.responses["200"])).toContain("#/components/schemas/PdfpcNotes");
  const schemaOf = (op: Operation, status: string) => (op.responses[status] as { content: Record<string, { schema: { properties: Record<string, { title?: string }> } }> }).content["application/json"]!.schema;
  expect(schemaOf(doc.paths["/api/live/{code}"]!.get!, "200").properties.notes).toMatchObject({ type: "boolean" });
  expect(schemaOf(goLive, "201").properties.notes).toMatchObject({ title: "LiveNotes" });
});
