/**
 * readNotesFile: a notes file beside the PDF — .pdfpc (format 1 and 2) or PowerPoint .pptx made
 * by code — read into notes per page and one normalised .pdfpc text, and every hostile input
 * (not a notes file, zip bomb, DOCTYPE/entities, 10,000 notes slides, oversized part) refused
 * with its code, quickly.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { strToU8 } from "fflate";
import { FINDING_CODES } from "../../src/deck/sidecar/findings.ts";
import { parseXml } from "../../src/deck/xml.ts";
import { MAX_NOTES_FILE_BYTES, readNotesFile } from "../../src/deck/notes-file/index.ts";
import { parsePdfpc } from "../../src/deck/sidecar/pdfpc.ts";
import { buildPptx, pptxManySlides, pptxOversizedPart, pptxParts, pptxWithEntities, pptxZipBomb, zipParts } from "../fixtures/pptx.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (7 s).
setDefaultTimeout(90_000);

const codes = (r: { issues: { code: string }[] }) => r.issues.map((i) => i.code);

describe("pptx notes", () => {
  const deck = buildPptx(
    [
      { notes: ["Welcome *everyone*", { text: "first point", bullet: true }, { text: "detail", bullet: true, level: 1 }], title: "Title slide" },
      { notes: ["Hidden slide's notes"], hidden: true },
      { notes: null },
      { notes: ["Line one\nline two", "", "Second paragraph"] },
    ],
    // presentation.xml lists the slides in another order than their file names.
    { order: [0, 1, 3, 2] },
  );

  test("notes of the visible slides map to PDF pages in sldIdLst order; hidden slides are left out", () => {
    const result = readNotesFile(deck, "C:\\talks\\talk.pptx", 3);
    expect(result.kind).toBe("pptx");
    expect(result.filename).toBe("talk.pptx");
    expect(result.slideCount).toBe(4);
    expect(result.issues).toEqual([]);
    // Plain text, as PowerPoint shows it: a paragraph a line, bullets written out, nothing escaped.
    expect(result.notesFormat).toBe("text");
    expect([...result.notes.entries()]).toEqual([
      [1, "Welcome *everyone*\n• first point\n  • detail"],
      [2, "Line one\nline two\n\nSecond paragraph"],
    ]);
    // Never the slide's own text, the slide image or the slide number placeholder.
    expect(JSON.stringify([...result.notes.values()])).not.toContain("Title slide");
    const pdfpc = JSON.parse(result.pdfpc as string);
    // pdfpc's own flag marks them plain text in the normalised file.
    expect(pdfpc).toEqual({ pdfpcFormat: 2, disableMarkdown: true, pages: [{ idx: 0, note: "Welcome *everyone*\n• first point\n  • detail" }, { idx: 1, note: "Line one\nline two\n\nSecond paragraph" }] });
    // The normalised text reads back through the attached-pdfpc parser unchanged, as text.
    const again = parsePdfpc(strToU8(result.pdfpc as string), "notes", 3);
    expect(again.issues).toEqual([]);
    expect(again.notesFormat).toBe("text");
    expect([...again.notes.entries()]).toEqual([...result.notes.entries()]);
  });

  test("a PDF exported with the hidden slides too maps every slide", () => {
    const result = readNotesFile(deck, "talk.pptx", 4);
    expect(result.issues).toEqual([]);
    expect(result.notes.get(2)).toBe("Hidden slide's notes");
    expect(result.notes.get(3)).toBe("Line one\nline two\n\nSecond paragraph");
  });

  test("an address keeps every character (no escaped underscore) and a hyperlink keeps its target", () => {
    const linked = buildPptx([
      {
        notes: [
          { runs: [{ text: "See " }, { text: "https://www.example.org/article135_3818.html", link: "https://www.example.org/article135_3818.html" }] },
          { runs: [{ text: "the " }, { text: "press release", link: "https://example.org/press_2024.html" }, { text: " for details" }] },
          { text: "Eye contact", numbered: true },
          { text: "Pace", numbered: true },
          { text: "Ansa\u0308tze, cafe\u0301" },
        ],
      },
    ]);
    const result = readNotesFile(linked, "links.pptx", 1);
    expect(result.issues).toEqual([]);
    expect(result.notes.get(1)).toBe("See https://www.example.org/article135_3818.html\nthe press release (https://example.org/press_2024.html) for details\n1. Eye contact\n2. Pace\nAnsätze, café");
  });

  test("a slide count that matches neither way is a warning; notes still map in order", () => {
    const result = readNotesFile(deck, "talk.pptx", 7);
    expect(codes(result)).toEqual(["NOTES_FILE_SLIDE_COUNT_MISMATCH"]);
    expect(result.issues[0]?.message).toContain("3 visible slides (1 hidden, left out as PowerPoint's PDF export does) but the PDF has 7 pages");
    expect(result.notes.size).toBe(2);
    expect(result.pdfpc).not.toBeNull();
  });

  test("a presentation without notes warns that it gives none", () => {
    const result = readNotesFile(buildPptx([{ notes: null }, { notes: [""] }]), "empty.pptx", 2);
    expect(codes(result)).toEqual(["NOTES_FILE_EMPTY"]);
  });

  test("a zip bomb is stopped before it inflates", () => {
    const bomb = pptxZipBomb(64);
    expect(bomb.length).toBeLessThan(200_000);
    // That it is refused cheaply (before inflating) is bench/inflate.ts's third case.
    const result = readNotesFile(bomb, "bomb.pptx", 2);
    expect(codes(result)).toEqual(["PPTX_ZIP_BOMB"]);
    expect(result.pdfpc).toBeNull();
  });

  test("an oversized XML part is refused", () => {
    const result = readNotesFile(pptxOversizedPart(), "big.pptx", 1);
    expect(codes(result)).toEqual(["PPTX_PART_TOO_LARGE"]);
  });

  test("XML with a DOCTYPE and entities is refused, nothing expanded", () => {
    const result = readNotesFile(pptxWithEntities(), "laughs.pptx", 1);
    expect(codes(result)).toEqual(["XML_DOCTYPE_REFUSED"]);
    expect(result.notes.size).toBe(0);
    expect(result.pdfpc).toBeNull();
  });

  test("10,000 notes slides are refused before anything is inflated", () => {
    const many = pptxManySlides(10_000);
    // How quickly: bench/inflate.ts, against reading an honest presentation's notes.
    const result = readNotesFile(many, "many.pptx", 10);
    expect(codes(result)).toEqual(["PPTX_TOO_MANY_SLIDES"]);
  }, 60_000);

  test("not a zip, a damaged zip, a zip without a presentation", () => {
    expect(codes(readNotesFile(strToU8("just some text"), "notes.txt", 1))).toEqual(["NOTES_FILE_UNRECOGNIZED"]);
    const truncated = buildPptx([{ notes: ["x"] }]).slice(0, 300);
    expect(codes(readNotesFile(truncated, "cut.pptx", 1))).toEqual(["PPTX_ZIP_INVALID"]);
    expect(codes(readNotesFile(zipParts({ "word/document.xml": "<w:document/>" }), "doc.docx", 1))).toEqual(["PPTX_PART_MALFORMED"]);
  });

  test("a notes file past the size cap is refused unread", () => {
    const result = readNotesFile(new Uint8Array(MAX_NOTES_FILE_BYTES + 1), "huge.pptx", 1);
    expect(codes(result)).toEqual(["NOTES_FILE_TOO_LARGE"]);
  });
});

describe("pdfpc notes file", () => {
  test("format 2: markdown notes, the timer, normalised", () => {
    const text = JSON.stringify({ pdfpcFormat: 2, duration: 20, startTime: "09:30", endTime: "10:00", lastMinutes: 5, endSlide: 3, pages: [{ idx: 0, label: "1", overlay: 0, note: "Say **hello**" }, { idx: 2, note: "Bye" }] });
    const result = readNotesFile(strToU8(text), "talk.pdfpc", 4);
    expect(result.kind).toBe("pdfpc");
    expect(result.issues).toEqual([]);
    expect(result.slideCount).toBe(3);
    // pdfpc writes endSlide 0-based (Ctrl+E on the fourth slide writes 3); kept 1-based, written back as pdfpc writes it.
    expect(result.timer).toEqual({ durationMinutes: 20, startTime: "09:30", endTime: "10:00", lastMinutes: 5, endSlide: 4 });
    expect(JSON.parse(result.pdfpc as string)).toEqual({ pdfpcFormat: 2, disableMarkdown: false, duration: 20, startTime: "09:30", endTime: "10:00", lastMinutes: 5, endSlide: 3, pages: [{ idx: 0, note: "Say **hello**" }, { idx: 2, note: "Bye" }] });
  });

  test("pages hidden in pdfpc (Ctrl+H) are kept through the normalised text; page 1 and pages past the deck are not", () => {
    const pages = [{ idx: 0, hidden: true }, { idx: 2, label: "3", overlay: 0, hidden: true }, { idx: 3, hidden: true, note: "Backup" }, { idx: 9, hidden: true }, { idx: 1, hidden: false }];
    const result = readNotesFile(strToU8(JSON.stringify({ pdfpcFormat: 2, endSlide: -1, pages })), "talk.pdfpc", 5);
    expect(result.issues).toEqual([]);
    expect(result.hidden).toEqual([3, 4]);
    expect(result.timer.endSlide).toBeUndefined();
    expect(JSON.parse(result.pdfpc as string).pages).toEqual([{ idx: 2, hidden: true }, { idx: 3, note: "Backup", hidden: true }]);
    const again = readNotesFile(strToU8(result.pdfpc as string), "notes file", 5);
    expect(again.hidden).toEqual([3, 4]);
  });

  test("a hidden flag that is not true or false is a coded finding", () => {
    const result = readNotesFile(strToU8(JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 1, hidden: "yes", note: "x" }] })), "talk.pdfpc", 3);
    expect(codes(result)).toEqual(["INVALID_FIELD"]);
    expect(result.hidden).toEqual([]);
  });

  test("notes are markdown unless disableMarkdown, in format 1 as in 2 (as pdfpc reads them), and never escaped", () => {
    const one = readNotesFile(strToU8(JSON.stringify({ pdfpcFormat: 1, pages: [{ idx: 1, note: "a*b*" }] })), "old.pdfpc", 2);
    expect([...one.notes.entries()]).toEqual([[2, "a*b*"]]);
    expect(one.notesFormat).toBe("markdown");
    const plain = readNotesFile(strToU8(JSON.stringify({ pdfpcFormat: 2, disableMarkdown: true, pages: [{ idx: 0, note: "1. Eye contact\n`x`" }] })), "plain.pdfpc", 2);
    expect([...plain.notes.entries()]).toEqual([[1, "1. Eye contact\n`x`"]]);
    expect(plain.notesFormat).toBe("text");
    expect(JSON.parse(plain.pdfpc as string).disableMarkdown).toBe(true);
  });

  test("a bad pdfpc is a coded finding, and nothing is stored", () => {
    expect(codes(readNotesFile(strToU8("{not json"), "bad.pdfpc", 2))).toEqual(["INVALID_JSON"]);
    const v3 = readNotesFile(strToU8(JSON.stringify({ pdfpcFormat: 3, pages: [] })), "v3.pdfpc", 2);
    expect(codes(v3)).toEqual(["PDFPC_FORMAT_UNSUPPORTED"]);
    expect(v3.pdfpc).toBeNull();
  });
});

describe("never throws", () => {
  const known = (issues: { code: string }[]) => issues.every((i) => i.code in FINDING_CODES);

  test("random bytes, random JSON, and a real .pptx with random bytes changed", () => {
    const base = buildPptx([{ notes: ["one"] }, { notes: ["two"], hidden: true }, { notes: ["three"] }]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.jsonValue(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.integer({ min: 1, max: 50 }), (bytes, json, edits, pages) => {
        const mutated = base.slice();
        for (const [at, value] of edits) mutated[at % mutated.length] = value;
        for (const [input, name] of [[bytes, "x.pptx"], [strToU8(JSON.stringify(json) ?? "null"), "x.pdfpc"], [mutated, "m.pptx"]] as const) {
          const result = readNotesFile(input, name, pages);
          expect(known(result.issues)).toBe(true);
          // A normalised text is always one the attached-pdfpc parser reads without an error.
          if (result.pdfpc !== null) expect(parsePdfpc(strToU8(result.pdfpc), "n", pages, 8 * 1024 * 1024).usable).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  test("random XML-ish text through the XML reader", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = parseXml(`<r xmlns:p="u">${text}</r>`, 10_000);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 300 },
    );
    expect(parseXml(`${"<a>".repeat(300)}${"</a>".repeat(300)}`, 10_000)).toEqual({ ok: false, reason: "too-deep" });
    expect(parseXml("<a/>".padEnd(20, " "), 10)).toEqual({ ok: false, reason: "too-large" });
  });
});
