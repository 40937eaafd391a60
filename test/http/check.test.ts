import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { buildFixturePdf, GIF_BYTES, mediaSidecar, notesSidecar, pollSidecar } from "../fixtures/sidecar-builder.ts";
import { makeDeck, makeEncryptedDeck, makeLoopingPageTree } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp } from "../helpers/app.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (11 s).
setDefaultTimeout(120_000);

let t: TestApp;
afterEach(() => t?.close());

type Report = {
  $schema: string;
  ok: boolean;
  pageCount: number;
  document: { bytes: number; sha256: string };
  summary: { total: number; valid: number; warning: number; invalid: number };
  pages: Array<{ page: number; notes: unknown; media: Array<{ filename: string; validity: string }>; poll?: { filename: string; data?: unknown } }>;
};

describe("POST /api/check", () => {
  test("returns a schema-valid report of the deck's sidecars and keeps nothing", async () => {
    t = makeTestApp();
    const pdf = await buildFixturePdf({
      pages: 3,
      attachments: [
        notesSidecar(2, "Say **hello**"),
        mediaSidecar(3, "clip", { kind: "file", mime: "image/gif", x_pt: 10, y_pt: 10, w_pt: 100, h_pt: 80, filename: "media-clip.gif" }),
        { name: "media-clip.gif", data: GIF_BYTES, mime: "image/gif" },
        pollSidecar(1, { multiple: true }),
      ],
    });
    const res = await t.upload(pdf, { path: "/api/check" });
    expect(res.status).toBe(200);
    const report = (await res.json()) as Report;
    expectValidReport(report);
    expect(report.$schema).toBe("/schema/check-report.schema.json");
    expect(report.ok).toBe(true);
    expect(report.pageCount).toBe(3);
    expect(report.document.bytes).toBe(pdf.length);
    expect(report.summary.invalid).toBe(0);
    expect(JSON.stringify(report.pages[1]!.notes)).toContain("hello");
    expect(report.pages[2]!.media.map((m) => m.filename)).toContain("media-slide-3-clip.json");
    expect(report.pages[0]!.poll).toMatchObject({ filename: "poll-slide-1.json", data: { question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: true } });
    // The checked PDF is not kept, and nothing was staged.
    expect(t.stagedFiles()).toEqual([]);
  });

  test("an invalid sidecar makes ok false with the finding in the report", async () => {
    t = makeTestApp();
    const pdf = await buildFixturePdf({ pages: 2, attachments: [notesSidecar(9, "too far")] });
    const report = (await (await t.upload(pdf, { path: "/api/check" })).json()) as Report;
    expectValidReport(report);
    expect(report.ok).toBe(false);
    expect(JSON.stringify(report)).toContain("out of range");
  });

  test("the same 4xx problems as present, and nothing left behind", async () => {
    t = makeTestApp({ maxUploadBytes: 50_000 });
    const cases: Array<[Uint8Array | string, number, string]> = [
      ["<html>not a pdf</html>", 415, "NOT_A_PDF"],
      ["%PDF-1.7 junk", 422, "PDF_UNREADABLE"],
      [await makeEncryptedDeck(), 422, "PDF_ENCRYPTED"],
      // One rule with present (deck/accept): a page tree that loops is damage, not a finding.
      [makeLoopingPageTree(), 422, "PDF_UNREADABLE"],
      [await makeDeck({ padToBytes: 200_000 }), 413, "FILE_TOO_LARGE"],
    ];
    for (const [bytes, status, code] of cases) {
      const problem = await problemOf(await t.upload(bytes, { path: "/api/check" }));
      expect([problem.status, problem.body.code]).toEqual([status, code]);
    }
    const form = new FormData();
    form.append("nothing", "here");
    expect((await problemOf(await t.handle("/api/check", { method: "POST", body: form }))).body.code).toBe("FILE_MISSING");
    expect(t.stagedFiles()).toEqual([]);
  });

  test("accepts a Bearer token, refuses an invalid one, and requires one only with --require-auth", async () => {
    t = makeTestApp();
    const deck = await makeDeck();
    const { token } = await t.deps.accessTokens.create(null);
    expect((await t.upload(deck, { path: "/api/check" })).status).toBe(200);
    expect((await t.upload(deck, { path: "/api/check", token })).status).toBe(200);
    expect((await t.upload(deck, { path: "/api/check", token: "dh_wrong" })).status).toBe(401);
    t.close();
    t = makeTestApp({ requireAuth: true });
    expect((await problemOf(await t.upload(deck, { path: "/api/check" }))).body.code).toBe("UNAUTHORIZED");
    const created = await t.deps.accessTokens.create(null);
    expect((await t.upload(deck, { path: "/api/check", token: created.token })).status).toBe(200);
  });
});

describe("GET /schema/check-report.schema.json", () => {
  test("is served as application/schema+json and documented in the OpenAPI check response", async () => {
    t = makeTestApp();
    const res = await t.handle("/schema/check-report.schema.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/schema+json");
    const doc = (await (await t.handle("/openapi.json")).json()) as { paths: Record<string, any>; components: { schemas: Record<string, any> } };
    expect(doc.paths["/api/check"].post.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/CheckReport");
    expect(doc.components.schemas.CheckReport.required).toContain("pages");
    expect(JSON.stringify(doc)).not.toContain("#/$defs/");
  });
});
