import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { runCheckCommand } from "../../src/cli/check.ts";
import { buildNotesDeck, framesWithNotes, xmpPacket } from "../fixtures/notes-layouts.ts";
import { mediaSidecar, notesSidecar, writeBytes, writeFixture } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCheckCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe("deckhand check", () => {
  test("a valid deck exits 0 and prints a per-slide summary", async () => {
    const file = await writeFixture({ pages: 3, attachments: [notesSidecar(2, "Say **hello** to everyone")] });
    const { code, out, err } = await run([file.path]);
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
    expect((await run(["a.pdf", "b.pdf"])).code).toBe(2);
    expect((await run(["--frobnicate", "a.pdf"])).code).toBe(2);
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: deckhand check FILE.pdf [--json]");
  });
});
