import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { runCheckCommand } from "../../src/cli/check.ts";
import { buildNotesDeck, framesWithNotes, xmpPacket } from "../fixtures/notes-layouts.ts";
import { mediaSidecar, notesSidecar, pdfpcFile, writeBytes, writeFixture } from "../fixtures/sidecar-builder.ts";
import { testPdfReader } from "../helpers/app.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (11 s).
setDefaultTimeout(120_000);

/** The deck's pages labelled as Beamer and Typst label builds: one range per page, the label its prefix. */
async function withLabels(bytes: Uint8Array, labels: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  doc.catalog.set(PDFName.of("PageLabels"), doc.context.obj({ Nums: labels.flatMap((label, i) => [i, doc.context.obj({ P: PDFString.of(label) })]) }));
  return doc.save();
}

/**
 * `deckhand check` with the test process's PDF workers (test/helpers/app.ts), or with `own`
 * its own, as the command line runs it: mupdf in this process. Its bounds are loosened here:
 * past them it ends the whole test process (they are tested in test/pdf/in-process.test.ts).
 */
async function run(argv: string[], { own = false } = {}) {
  let out = "";
  let err = "";
  const code = await runCheckCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t), ...(own ? { limits: { memoryBytes: 0, timeoutMs: 120_000 } } : { pdf: testPdfReader() }) });
  return { code, out, err };
}

describe("deckhand check", () => {
  test("a valid deck exits 0 and prints a per-slide summary", async () => {
    const file = await writeFixture({ pages: 3, attachments: [notesSidecar(2, "Say **hello** to everyone")] });
    const { code, out, err } = await run([file.path], { own: true });
    expect(code).toBe(0);
    expect(err).toBe("");
    expect(out).toContain("3 pages, 1 attachment (1 valid, 0 with warnings, 0 invalid)");
    expect(out).toContain("Slide 2\n");
    expect(out).toContain(`notes      "Say **hello** to everyone" (from notes-sidecar: notes-slide-2.json)`);
    expect(out).not.toContain("Slide 1\n");
    expect(out.trimEnd().endsWith("Valid.")).toBe(true);
  });

  test("a Beamer deck with notes on a second screen: the layout and pdfpc.sty's timer are named, each slide's notes come from its notes half", async () => {
    const deck = await buildNotesDeck({ position: "left", frames: framesWithNotes(3), xmp: xmpPacket({ Duration: "25", NotesPosition: "left" }) });
    const file = writeBytes(deck, "beamer-left.pdf");
    const { code, out } = await run([file.path]);
    expect(code).toBe(0);
    expect(out).toContain("Whole deck\n  layout     notes on the left half of every page (pdfpc:NotesPosition in the XMP metadata); the audience sees the other half");
    expect(out).toContain("  timer      25 min talk");
    expect(out).toMatch(/Slide 1\n  notes      ".+" \(from notes-page\)/);
  });

  test("a deck with builds names each page with its slide, in the summary and in the findings", async () => {
    // Six pages, four slides: slide 2 is a build of three steps (pages 2–4).
    const built = await writeFixture({
      pages: 6,
      attachments: [pdfpcFile({ pdfpcFormat: 2, endSlide: 2, pages: [] }), notesSidecar(4, "Third step: the punchline"), notesSidecar(6, "Thanks"), mediaSidecar(3, "far", { kind: "youtube", video_id: "dQw4w9WgXcQ", x_pt: 5000, y_pt: 10, w_pt: 100, h_pt: 80 })],
    });
    const file = writeBytes(await withLabels(built.data, ["1", "2", "2", "2", "3", "4"]), "builds.pdf");
    const { out } = await run([file.path]);
    expect(out).toContain("builds.pdf: 6 pages (4 slides), 4 attachments");
    expect(out).toContain("\nPage 4 (slide 2)\n  notes      \"Third step: the punchline\"");
    expect(out).toContain("\nPage 6 (slide 4)\n");
    expect(out).not.toContain("\nSlide 4\n");
    expect(out).toContain("  timer      the talk ends with its slide 3 (later slides are backup)");
    expect(out).toMatch(/MEDIA_RECT_OUTSIDE_PAGE: media-slide-3-far\.json: the media rectangle .* lies outside page 3 \(slide 2\), a 612×792 pt page;/);
    const json = JSON.parse((await run(["--json", file.path])).out);
    expectValidReport(json);
    expect(json.pages.map((p: { label: string }) => p.label)).toEqual(["1", "2", "2", "2", "3", "4"]);
    expect(json.pages[2].media[0].issues[0].message).toContain("lies outside page 3 (slide 2)");
  });

  test("a deck whose pages are its slides keeps saying “slide”", async () => {
    const file = await writeFixture({ pages: 2, attachments: [mediaSidecar(2, "far", { kind: "youtube", video_id: "dQw4w9WgXcQ", x_pt: 5000, y_pt: 10, w_pt: 100, h_pt: 80 })] });
    const { out } = await run([file.path]);
    expect(out).toContain(": 2 pages, 1 attachment");
    expect(out).toContain("\nSlide 2\n");
    expect(out).toContain("lies outside slide 2, a 612×792 pt page;");
  });

  test("warnings still exit 0", async () => {
    const file = await writeFixture({ pages: 1, attachments: [{ name: "readme.txt", data: "hi" }] });
    const { code, out } = await run([file.path]);
    expect(code).toBe(0);
    expect(out).toContain("UNKNOWN_ATTACHMENT");
    expect(out.trimEnd().endsWith("Valid, with warnings.")).toBe(true);
  });

  test("an invalid deck exits 1 and names the finding", async () => {
    const file = await writeFixture({ pages: 12, attachments: [notesSidecar(14, "late")] });
    const { code, out } = await run([file.path]);
    expect(code).toBe(1);
    expect(out).toContain("error   SLIDE_OUT_OF_RANGE: \"notes-slide-14.json\": Slide 14 is out of range (the deck has 12 pages)");
    expect(out.trimEnd().endsWith("Invalid: fix the errors above.")).toBe(true);
  });

  test("--json prints the schema-valid report with the file's size and SHA-256", async () => {
    const file = await writeFixture({ pages: 2, attachments: [mediaSidecar(1, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" })] });
    const { code, out } = await run(["--json", file.path]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expectValidReport(report);
    expect(report.document).toMatchObject({ bytes: file.bytes, sha256: file.sha256, pageCount: 2 });
  });

  test("a missing file exits 2", async () => {
    const { code, err, out } = await run([join(tmpdir(), "no-such-deck-4711.pdf")]);
    expect(code).toBe(2);
    expect(err).toContain("no such file");
    expect(out).toBe("");
  });

  test("a file that is not a PDF exits 2 (and --json prints the problem)", async () => {
    // In the fixtures' directory, which the test run removes (a file of its own in /tmp stayed).
    const { path } = writeBytes(new TextEncoder().encode("hello, I am text"));
    const { code, out, err } = await run([path, "--json"]);
    expect(code).toBe(2);
    expect(err).toContain("not a PDF");
    expect(JSON.parse(out)).toMatchObject({ code: "NOT_A_PDF", status: 415 });
  });

  test("an unreadable PDF exits 2", async () => {
    const file = writeBytes(new TextEncoder().encode("%PDF-1.7\n garbage garbage garbage\n%%EOF\n"));
    const { code } = await run([file.path]);
    expect(code).toBe(2);
  });

  test("usage errors exit 2; --help exits 0", async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(["--frobnicate", "a.pdf"])).code).toBe(2);
    const timeout = await run(["--pdf-timeout", "0", "a.pdf"]);
    expect(timeout.code).toBe(2);
    expect(timeout.err).toStartWith(`deckhand check: --pdf-timeout must be a number from 0.1 to 3600, got "0"`);
    expect((await run(["--pdf-memory-mb=12", "a.pdf"])).code).toBe(2);
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: deckhand check FILE.pdf… [--json]");
    expect(help.out).toContain("Exit status: 2 when any file is missing, unreadable or not a PDF");
  });

  test("--notes with two PDFs is refused as a usage error, before any file is read", async () => {
    const a = await writeFixture({ pages: 1 });
    const notes = writeBytes(new TextEncoder().encode("[notes]\n### 1\nhi\n"), "talk.pdfpc");
    const { code, out, err } = await run([a.path, a.path, "--notes", notes.path]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toStartWith("deckhand check: --notes goes with one PDF");
    expect(err).toContain("Usage: deckhand check");
  });

  test("the command's own in-process reader prints what the pool's reports print, text and JSON", async () => {
    const file = await writeFixture({ pages: 3, attachments: [notesSidecar(2, "Say hi"), notesSidecar(9, "late"), mediaSidecar(3, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" })] });
    for (const argv of [[file.path], ["--json", file.path]]) {
      const own = await run(argv, { own: true });
      const pool = await run(argv);
      expect(own).toEqual(pool);
      expect(own.code).toBe(1);
    }
  });
});

describe("deckhand check with several files", () => {
  test("all valid: one section per file, headed by its name, and a summary line; exit 0", async () => {
    const a = await writeFixture({ pages: 2, attachments: [notesSidecar(1, "first")] }, "a.pdf");
    const b = await writeFixture({ pages: 1 }, "b.pdf");
    const { code, out, err } = await run([a.path, b.path], { own: true });
    expect(code).toBe(0);
    expect(err).toBe("");
    const single = (await run([a.path])).out;
    // The first section is exactly the one-file output; the next follows after a blank line.
    expect(out).toStartWith(`${single}\n${b.path}: 1 page, 0 attachments`);
    expect(out).toEndWith("Valid.\n\n2 files: 2 valid, 0 invalid, 0 not checked.\n");
  });

  test("one invalid exits 1; one missing among them exits 2, and the others are still checked", async () => {
    const valid = await writeFixture({ pages: 2 });
    const invalid = await writeFixture({ pages: 2, attachments: [notesSidecar(5, "late")] });
    const missing = join(tmpdir(), "no-such-deck-4712.pdf");
    expect((await run([valid.path, invalid.path])).code).toBe(1);
    const { code, out, err } = await run([valid.path, missing, invalid.path]);
    expect(code).toBe(2);
    expect(err).toBe(`deckhand check: ${missing}: no such file\n`);
    expect(out).toContain(`\n${missing}: not checked (FILE_MISSING)\n\n${invalid.path}: 2 pages`);
    expect(out).toContain("SLIDE_OUT_OF_RANGE");
    expect(out).toEndWith("\n3 files: 1 valid, 1 invalid, 1 not checked.\n");
  });

  test("--json prints an array of {file, report} and {file, problem} in the order given", async () => {
    const valid = await writeFixture({ pages: 2, attachments: [mediaSidecar(1, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" })] });
    const notPdf = writeBytes(new TextEncoder().encode("hello, I am text"));
    const missing = join(tmpdir(), "no-such-deck-4713.pdf");
    const { code, out } = await run(["--json", valid.path, notPdf.path, missing]);
    expect(code).toBe(2);
    const entries = JSON.parse(out);
    expect(entries.map((e: { file: string }) => e.file)).toEqual([valid.path, notPdf.path, missing]);
    expect(entries[0].report).toEqual(JSON.parse((await run(["--json", valid.path])).out));
    expectValidReport(entries[0].report);
    expect(entries[1].problem).toMatchObject({ code: "NOT_A_PDF", status: 415 });
    expect(entries[2].problem).toMatchObject({ code: "FILE_MISSING", detail: `${missing} does not exist or is not a file.` });
    expect(Object.keys(entries[1])).toEqual(["file", "problem"]);
  });
});
