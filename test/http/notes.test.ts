/**
 * A notes file beside the PDF through the REST API: the `notes` part of
 * POST /api/present and /api/check (a .pdfpc or a .pptx), GET /api/sessions/{id}/notes, and
 * every bad input answered with a coded problem (present) or finding (check), nothing left
 * behind. Real server through app.handle(), real SQLite, real files, real mupdf workers.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { MAX_NOTES_FILE_BYTES, readNotesFile } from "../../src/deck/notes-file/index.ts";
import { NOTES_FILE_MAX_BYTES } from "../../src/tools/upload-limits.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp, withDeclaredLength } from "../helpers/app.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { billionLaughsPptx, expectOnlyDecks, manySlidesPptx, notAPptxZip, type Part, pdfpcFile, pptxFile, rowCount, sendWithNotes as send, zipBombPptx } from "./notes-fixtures.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4.5 s).
setDefaultTimeout(45_000);

let t: TestApp;
afterEach(() => t?.close());

const HOUR = 3_600_000;

const notesRoute = (app: TestApp, id: string, token?: string, how: "header" | "query" = "header") =>
  app.handle(`/api/sessions/${id}/notes${token !== undefined && how === "query" ? `?t=${encodeURIComponent(token)}` : ""}`, {
    headers: token !== undefined && how === "header" ? { "x-controller-token": token } : {},
  });

function tokenOf(record: { url: string }): string {
  return new URL(record.url).hash.replace(/^#t=/, "");
}

type Record_ = { id: string; url: string; next: string; totalSlides: number; notes?: { filename: string; kind: string; slides: number; warnings: Array<{ code: string; message: string }> } };

for (const declared of [false, true]) {
  describe(`notes part on POST /api/present, ${declared ? "sent with its length (received whole)" : "streamed"}`, () => {
    const formats: Array<{ name: string; part: () => Part; kind: "pdfpc" | "pptx"; notes: string[] }> = [
      { name: ".pdfpc", part: () => ({ bytes: pdfpcFile({ 1: "Welcome **everyone**", 3: "Thank the team" }, { duration: 20 }), filename: "talk.pdfpc", type: "application/json" }), kind: "pdfpc", notes: ["Welcome **everyone**", "Thank the team"] },
      { name: ".pptx", part: () => ({ bytes: pptxFile({ slides: ["Welcome everyone", null, "Thank the team"] }), filename: "talk.pptx" }), kind: "pptx", notes: ["Welcome everyone", "Thank the team"] },
    ];
    for (const format of formats) {
      test(`${format.name}: staged with the deck, described in the record, served to the token holder, gone after the claim`, async () => {
        t = makeTestApp();
        const pdf = await makeDeck({ pages: 3 });
        const part = format.part();
        const res = await send(t, "/api/present", pdf, part, { declared, notesFirst: format.kind === "pptx" });
        expect(res.status).toBe(200);
        const record = (await res.json()) as Record_;
        expect(record.notes).toEqual({ filename: part.filename, kind: format.kind, slides: 2, warnings: [] });
        expect(record.next).toContain(`with speaker notes from "${part.filename}"`);
        // The row says what came and holds the normalised text; staged/ holds only the deck.
        const row = t.row(record.id)!;
        expect([row.notes_filename, row.notes_kind, row.notes_slides]).toEqual([part.filename, format.kind, 2]);
        const expected = readNotesFile(part.bytes as Uint8Array, part.filename, 3).pdfpc;
        expect(row.notes_pdfpc).toBe(expected);
        await expectOnlyDecks(t, [record.id]);

        // The notes route: the header or ?t=, the normalised .pdfpc (format 2), never cached.
        const token = tokenOf(record);
        for (const how of ["header", "query"] as const) {
          const notes = await notesRoute(t, record.id, token, how);
          expect(notes.status).toBe(200);
          expect(notes.headers.get("content-type")).toBe("application/json; charset=utf-8");
          expect(notes.headers.get("cache-control")).toBe("no-store");
          expect(notes.headers.get("referrer-policy")).toBe("no-referrer");
          expect(notes.headers.get("x-notes-kind")).toBe(format.kind);
          expect(decodeURIComponent(notes.headers.get("x-notes-filename")!)).toBe(part.filename);
          expect(notes.headers.get("x-notes-slides")).toBe("2");
          const body = await notes.text();
          expect(body).toBe(expected!);
          const doc = JSON.parse(body) as { pdfpcFormat: number; pages: Array<{ idx: number; note?: string }> };
          expect(doc.pdfpcFormat).toBe(2);
          expect(doc.pages.filter((p) => p.note).map((p) => [p.idx, p.note])).toEqual([
            [0, format.notes[0]],
            [2, format.notes[1]],
          ]);
        }
        // Fetching does not consume the handoff; the claim does, and takes the notes with it.
        expect(t.row(record.id)!.state).toBe("staged");
        const complete = await t.handle(`/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
        expect(complete.status).toBe(200);
        const gone = await problemOf(await notesRoute(t, record.id, token));
        expect([gone.status, gone.body.code]).toEqual([410, "HANDOFF_CLAIMED"]);
        expect(t.row(record.id)!.notes_pdfpc).toBeNull();
        await expectOnlyDecks(t, []);
      });
    }

    test("a .pptx whose slide count differs from the PDF's is staged with a warning", async () => {
      t = makeTestApp();
      const res = await send(t, "/api/present", await makeDeck({ pages: 2 }), { bytes: pptxFile({ slides: ["one", "two", "three"] }), filename: "longer.pptx" }, { declared });
      expect(res.status).toBe(200);
      const record = (await res.json()) as Record_;
      expect(record.notes?.kind).toBe("pptx");
      expect(record.notes!.warnings.length).toBeGreaterThan(0);
      const expected = readNotesFile(pptxFile({ slides: ["one", "two", "three"] }), "longer.pptx", 2);
      expect(record.notes!.warnings.map((w) => w.code)).toEqual(expected.issues.filter((i) => i.level === "warning").map((i) => i.code));
      expect(record.notes!.warnings.every((w) => w.message.length > 20)).toBe(true);
      await expectOnlyDecks(t, [record.id]);
    });

    test("an empty notes part without a name (a form with no file chosen) is no notes at all", async () => {
      t = makeTestApp();
      const res = await send(t, "/api/present", await makeDeck({ pages: 1 }), { bytes: new Uint8Array(0), filename: "" }, { declared });
      expect(res.status).toBe(200);
      const record = (await res.json()) as Record_;
      expect(record.notes).toBeUndefined();
      expect((await notesRoute(t, record.id, tokenOf(record))).status).toBe(204);
      await expectOnlyDecks(t, [record.id]);
    });

    test("a notes file name is made safe: path parts and control characters go", async () => {
      t = makeTestApp();
      const res = await send(t, "/api/present", await makeDeck({ pages: 1 }), { bytes: pdfpcFile({ 1: "hi" }), filename: "../../etc/ta\u202Elk\u0007.pdfpc" }, { declared });
      const record = (await res.json()) as Record_;
      expect(record.notes?.filename).toBe("talk.pdfpc");
      const notes = await notesRoute(t, record.id, tokenOf(record));
      expect(notes.headers.get("x-notes-filename")).toBe("talk.pdfpc");
    });

    const bad: Array<{ name: string; part: () => Part; status: number; code: string }> = [
      { name: "garbage bytes (neither .pdfpc nor .pptx)", part: () => ({ bytes: crypto.getRandomValues(new Uint8Array(4096)), filename: "notes.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
      { name: "a zip that is not a presentation", part: () => ({ bytes: notAPptxZip(), filename: "notes.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
      { name: "a .pdfpc of an unknown format", part: () => ({ bytes: JSON.stringify({ pdfpcFormat: 7, pages: [] }), filename: "talk.pdfpc" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
      { name: "a .pdfpc whose notes name a slide the PDF lacks", part: () => ({ bytes: pdfpcFile({ 9: "too far" }), filename: "talk.pdfpc" }), status: 422, code: "NOTES_FILE_INVALID" },
      { name: "a zip bomb", part: () => ({ bytes: zipBombPptx(), filename: "bomb.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
      { name: "XML with entity expansion (billion laughs)", part: () => ({ bytes: billionLaughsPptx(), filename: "lol.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
      { name: "10,000 notes slides", part: () => ({ bytes: manySlidesPptx(10_000), filename: "huge.pptx" }), status: 422, code: "NOTES_FILE_UNREADABLE" },
    ];
    for (const c of bad) {
      test(`${c.name} → ${c.status} ${c.code} quoting the finding; no row, no file`, async () => {
        t = makeTestApp();
        const part = c.part();
        const problem = await problemOf(await send(t, "/api/present", await makeDeck({ pages: 2 }), part, { declared }));
        expect([problem.status, problem.body.code]).toEqual([c.status, c.code]);
        expect(problem.contentType).toBe("application/problem+json");
        // The detail is the reader's own first error, for the file as named.
        const bytes = typeof part.bytes === "string" ? new TextEncoder().encode(part.bytes) : part.bytes;
        const firstError = readNotesFile(bytes, part.filename, 2).issues.find((i) => i.level === "error");
        expect(firstError).toBeDefined();
        expect(String(problem.body.detail)).toStartWith(`${part.filename}: ${firstError!.message}`);
        expect(JSON.stringify(problem.body)).not.toContain(t.dataDir);
        expect(rowCount(t, "sessions")).toBe(0);
        await expectOnlyDecks(t, []);
        expect((await t.handle("/healthz")).status).toBe(200);
        // Building and sending 10,000 slides (~29 MB stored) takes seconds on a busy machine.
      }, 60_000);
    }

    test("a notes part over its limit → 413 NOTES_FILE_TOO_LARGE, cut off, nothing left behind", async () => {
      t = makeTestApp({ maxUploadBytes: 64 * 1024 });
      const pdf = await makeDeck({ pages: 1 });
      const problem = await problemOf(await send(t, "/api/present", pdf, { bytes: new Uint8Array(100 * 1024).fill(32), filename: "big.pptx" }, { declared }));
      expect([problem.status, problem.body.code]).toEqual([413, "NOTES_FILE_TOO_LARGE"]);
      expect(String(problem.body.detail)).toContain("0.06 MB");
      expect(rowCount(t, "sessions")).toBe(0);
      await expectOnlyDecks(t, []);
    });

    test("a declared length past both limits is refused before reading, naming both", async () => {
      t = makeTestApp({ maxUploadBytes: 64 * 1024 });
      const problem = await problemOf(await send(t, "/api/present", await makeDeck({ pages: 1 }), { bytes: new Uint8Array(300 * 1024), filename: "big.pptx" }, { declared: true }));
      expect([problem.status, problem.body.code]).toEqual([413, "FILE_TOO_LARGE"]);
      expect(String(problem.body.detail)).toContain("0.06 MB for a notes file");
      await expectOnlyDecks(t, []);
    });

    test("a refused PDF with a good notes file leaves nothing either", async () => {
      t = makeTestApp();
      const problem = await problemOf(await send(t, "/api/present", new TextEncoder().encode("<html>no</html>"), { bytes: pdfpcFile({ 1: "hi" }), filename: "a.pdfpc" }, { declared }));
      expect([problem.status, problem.body.code]).toEqual([415, "NOT_A_PDF"]);
      expect(rowCount(t, "sessions")).toBe(0);
      await expectOnlyDecks(t, []);
    });

    test("a notes part without a file part is FILE_MISSING, and its file is removed", async () => {
      t = makeTestApp();
      const form = new FormData();
      form.append("notes", new Blob([pdfpcFile({ 1: "hi" }) as BlobPart]), "a.pdfpc");
      const init: RequestInit = { method: "POST", body: form };
      const problem = await problemOf(await t.handle("/api/present", declared ? await withDeclaredLength(init) : init));
      expect([problem.status, problem.body.code]).toEqual([400, "FILE_MISSING"]);
      await expectOnlyDecks(t, []);
    });
  });
}

test("the notes part's limit is the notes reader's: a part the server takes is one the reader reads", () => {
  expect(NOTES_FILE_MAX_BYTES).toBe(MAX_NOTES_FILE_BYTES);
});

describe("GET /api/sessions/{id}/notes", () => {
  test("204 for a deck without notes; 401, 403 and 404 as the download answers them", async () => {
    t = makeTestApp();
    const record = (await (await send(t, "/api/present", await makeDeck({ pages: 1 }), null)).json()) as Record_;
    const token = tokenOf(record);
    const none = await notesRoute(t, record.id, token);
    expect(none.status).toBe(204);
    expect(none.headers.get("cache-control")).toBe("no-store");
    expect(await none.text()).toBe("");

    const withNotes = (await (await send(t, "/api/present", await makeDeck({ pages: 1 }), { bytes: pdfpcFile({ 1: "hi" }), filename: "a.pdfpc" })).json()) as Record_;
    const cases: Array<[string, string | undefined, number, string]> = [
      [withNotes.id, undefined, 401, "TOKEN_MISSING"],
      [withNotes.id, token, 403, "TOKEN_INVALID"],
      [withNotes.id, "x".repeat(43), 403, "TOKEN_INVALID"],
      ["A".repeat(22), tokenOf(withNotes), 404, "SESSION_NOT_FOUND"],
      ["not-an-id", tokenOf(withNotes), 404, "SESSION_NOT_FOUND"],
    ];
    for (const [id, tok, status, code] of cases) {
      const problem = await problemOf(await notesRoute(t, id, tok));
      expect([problem.status, problem.body.code, problem.contentType]).toEqual([status, code, "application/problem+json"]);
    }
    // The header wins over the query parameter, as for the download.
    const res = await t.handle(`/api/sessions/${withNotes.id}/notes?t=${tokenOf(withNotes)}`, { headers: { "x-controller-token": "nope" } });
    expect(res.status).toBe(403);
  });

  test("410 HANDOFF_EXPIRED once the link expires (before and after the sweep); the sweep clears the text", async () => {
    t = makeTestApp();
    const record = (await (await send(t, "/api/present", await makeDeck({ pages: 2 }), { bytes: pptxFile({ slides: ["a", "b"] }), filename: "t.pptx" })).json()) as Record_;
    const token = tokenOf(record);
    expect((await notesRoute(t, record.id, token)).status).toBe(200);
    t.advance(24 * HOUR);
    let problem = await problemOf(await notesRoute(t, record.id, token));
    expect([problem.status, problem.body.code]).toEqual([410, "HANDOFF_EXPIRED"]);
    // Not swept yet: the text is still in the row, and still not handed out.
    expect(t.row(record.id)!.notes_pdfpc).not.toBeNull();
    expect((await t.deps.handoff.sweep()).expired).toBe(1);
    expect(t.row(record.id)!.notes_pdfpc).toBeNull();
    expect(t.row(record.id)!.state).toBe("expired");
    problem = await problemOf(await notesRoute(t, record.id, token));
    expect([problem.status, problem.body.code]).toEqual([410, "HANDOFF_EXPIRED"]);
    await expectOnlyDecks(t, []);
  });
});

describe("notes part on POST /api/check", () => {
  for (const declared of [false, true]) {
    test(`${declared ? "whole" : "streamed"}: each format's findings are in the report; nothing kept`, async () => {
      t = makeTestApp();
      const pdf = await makeDeck({ pages: 2 });
      for (const part of [
        { bytes: pdfpcFile({ 1: "Hello" }), filename: "talk.pdfpc" },
        { bytes: pptxFile({ slides: ["one", "two", "three"] }), filename: "talk.pptx" },
      ]) {
        const res = await send(t, "/api/check", pdf, part, { declared });
        expect(res.status).toBe(200);
        const report = (await res.json()) as Record<string, unknown> & { notesFile?: { filename: string; kind: string | null; issues: Array<{ code: string }> } };
        expectValidReport(report);
        expect(report.notesFile?.filename).toBe(part.filename);
        const expected = readNotesFile(part.bytes, part.filename, 2);
        expect(report.notesFile?.kind).toBe(expected.kind);
        expect(report.notesFile!.issues.map((i) => i.code)).toEqual(expected.issues.map((i) => i.code));
      }
      expect(rowCount(t, "sessions")).toBe(0);
      await expectOnlyDecks(t, []);
    });
  }

  test("a broken notes file is a finding, never a problem: zip bomb, entities, 10,000 slides, garbage", async () => {
    t = makeTestApp();
    const pdf = await makeDeck({ pages: 2 });
    for (const part of [
      { bytes: zipBombPptx(), filename: "bomb.pptx" },
      { bytes: billionLaughsPptx(), filename: "lol.pptx" },
      { bytes: manySlidesPptx(10_000), filename: "huge.pptx" },
      { bytes: crypto.getRandomValues(new Uint8Array(1000)), filename: "x.pdfpc" },
    ]) {
      const res = await send(t, "/api/check", pdf, part);
      expect(res.status).toBe(200);
      const report = (await res.json()) as Record<string, unknown> & { ok: boolean; notesFile?: { validity: string; issues: Array<{ code: string; level: string }> } };
      expectValidReport(report);
      expect(report.ok).toBe(false);
      expect(report.notesFile?.validity).toBe("invalid");
      const expected = readNotesFile(part.bytes, part.filename, 2).issues.filter((i) => i.level === "error").map((i) => i.code);
      expect(expected.length).toBeGreaterThan(0);
      expect(report.notesFile!.issues.filter((i) => i.level === "error").map((i) => i.code)).toEqual(expected);
    }
    await expectOnlyDecks(t, []);
  }, 60_000);

  test("a notes part over its limit is 413 NOTES_FILE_TOO_LARGE on check too", async () => {
    t = makeTestApp({ maxUploadBytes: 64 * 1024 });
    const problem = await problemOf(await send(t, "/api/check", await makeDeck({ pages: 1 }), { bytes: new Uint8Array(100 * 1024), filename: "big.pptx" }));
    expect([problem.status, problem.body.code]).toEqual([413, "NOTES_FILE_TOO_LARGE"]);
    await expectOnlyDecks(t, []);
  });
});
