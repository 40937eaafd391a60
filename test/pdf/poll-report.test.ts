/**
 * Poll sidecars (`poll-slide-{N}.json`) in the check report: a usable poll lands on its page
 * with its data and in the presenter's extras; every way it can be wrong is a finding that
 * names the field (or the other sidecar) to fix, and an unusable poll is never opened.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { formatReport } from "../../src/cli/check.ts";
import { readDeckExtras } from "../../src/deck/extras.ts";
import { buildCheckReport, type CheckReport, type ReportOptions } from "../../src/deck/report.ts";
import { describeCheckReport } from "../../src/mcp/summary.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildFixturePdf, deflateBomb, notesSidecar, pollSidecar, sha256Hex, type FixtureSpec } from "../fixtures/sidecar-builder.ts";
import { allIssues, expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine.
setDefaultTimeout(30_000);

async function check(spec: FixtureSpec, options: ReportOptions = {}) {
  const mupdf = await loadMupdf();
  const bytes = await buildFixturePdf({ pages: 3, ...spec });
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.7", title: null, pageCount: doc.countPages() }, options);
  expectValidReport(report);
  return { report, extras: readDeckExtras(mupdf, doc) };
}

/** The findings of a report as code + attachment + slide, the part tools branch on. */
function codes(report: CheckReport) {
  return allIssues(report).map((i) => ({ code: i.code, attachment: i.attachment, slide: i.slide }));
}

describe("poll sidecars", () => {
  test("a valid poll is its page's poll, counted in the summary and opened by the presenter", async () => {
    const { report, extras } = await check({ attachments: [notesSidecar(2, "Ask them"), pollSidecar(2, { multiple: true, options: ["Tabs", "Spaces", "Both 🙃"] })] });
    const page = report.pages[1]!;
    expect(page.poll).toMatchObject({ filename: "poll-slide-2.json", kind: "poll", slide: 2, validity: "valid", issues: [], data: { question: "Tabs or spaces?", options: ["Tabs", "Spaces", "Both 🙃"], multiple: true } });
    expect(report.pages[0]!.poll).toBeUndefined();
    expect(report.summary).toEqual({ total: 2, valid: 2, warning: 0, invalid: 0 });
    expect(report.ok).toBe(true);
    expect(extras.polls).toEqual([{ slide: 2, question: "Tabs or spaces?", options: ["Tabs", "Spaces", "Both 🙃"], multiple: true, sidecar: "poll-slide-2.json" }]);
  });

  test("multiple defaults to false; a folder prefix and $schema are fine", async () => {
    const { report, extras } = await check({ attachments: [pollSidecar(3, { $schema: "/schema/poll-sidecar.schema.json" }, { name: "src/poll-slide-3.json" })] });
    expect(report.pages[2]!.poll).toMatchObject({ filename: "poll-slide-3.json", name: "src/poll-slide-3.json", validity: "valid", data: { multiple: false } });
    expect(extras.polls?.map((p) => [p.slide, p.multiple])).toEqual([[3, false]]);
  });

  test("not JSON: INVALID_JSON on the poll, which stays on its page and is not opened", async () => {
    const { report, extras } = await check({ attachments: [{ name: "poll-slide-1.json", data: '{"question": "unterminated' }] });
    expect(codes(report)).toEqual([{ code: "INVALID_JSON", attachment: "poll-slide-1.json", slide: 1 }]);
    expect(report.pages[0]!.poll).toMatchObject({ kind: "poll", validity: "invalid" });
    expect(report.pages[0]!.poll?.data).toBeUndefined();
    expect(report.ok).toBe(false);
    expect(extras.polls).toBeUndefined();
  });

  const fieldCases: [string, Record<string, unknown>, string, string][] = [
    ["no question", { question: undefined }, "MISSING_FIELD", '"question"'],
    ["a blank question", { question: "   " }, "INVALID_FIELD", '"question" is empty'],
    ["a question of 201 characters", { question: "q".repeat(201) }, "INVALID_FIELD", '"question" is 201 characters long'],
    ["options not an array", { options: "Tabs, Spaces" }, "INVALID_FIELD", '"options" is a string'],
    ["one option", { options: ["Tabs"] }, "INVALID_FIELD", '"options" has 1 entry'],
    ["seven options", { options: ["a", "b", "c", "d", "e", "f", "g"] }, "INVALID_FIELD", '"options" has 7 entries'],
    ["a number as an option", { options: ["Tabs", 2] }, "INVALID_FIELD", '"options"[1] is a number'],
    ["an option of 101 characters", { options: ["Tabs", "x".repeat(101)] }, "INVALID_FIELD", '"options"[1] is 101 characters long'],
    ["multiple not a boolean", { multiple: "yes" }, "INVALID_FIELD", '"multiple" is a string'],
    ["a JSON array", { $array: true }, "INVALID_FIELD", "a poll sidecar is a JSON object"],
  ];
  for (const [what, fields, code, says] of fieldCases) {
    test(`${what}: ${code} naming the field, and no poll opened`, async () => {
      const data = fields.$array ? ["Tabs", "Spaces"] : JSON.parse(JSON.stringify({ question: "Tabs or spaces?", options: ["Tabs", "Spaces"], ...fields }));
      const { report, extras } = await check({ attachments: [{ name: "poll-slide-2.json", data, mime: "application/json" }] });
      const issues = allIssues(report);
      expect(issues.map((i) => i.code)).toEqual([code]);
      expect(issues[0]).toMatchObject({ attachment: "poll-slide-2.json", slide: 2 });
      expect(issues[0]!.message).toContain(says);
      expect(report.pages[1]!.poll?.validity).toBe("invalid");
      expect(extras.polls).toBeUndefined();
    });
  }

  test("an unknown field is a warning; the poll is still opened", async () => {
    const { report, extras } = await check({ attachments: [pollSidecar(1, { slide: 1 })] });
    expect(codes(report)).toEqual([{ code: "UNKNOWN_FIELD", attachment: "poll-slide-1.json", slide: 1 }]);
    expect(report.pages[0]!.poll?.validity).toBe("warning");
    expect(report.ok).toBe(true);
    expect(extras.polls).toHaveLength(1);
  });

  test("a slide out of range: an orphan with SLIDE_OUT_OF_RANGE", async () => {
    const { report, extras } = await check({ attachments: [pollSidecar(9)] });
    expect(codes(report)).toEqual([{ code: "SLIDE_OUT_OF_RANGE", attachment: "poll-slide-9.json", slide: 9 }]);
    expect(report.orphans.map((o) => [o.filename, o.kind])).toEqual([["poll-slide-9.json", "poll"]]);
    expect(report.pages.every((p) => p.poll === undefined)).toBe(true);
    expect(extras.polls).toBeUndefined();
  });

  test("two polls for one slide: the first is used, the second is an orphan with DUPLICATE_POLL_SIDECAR", async () => {
    const { report, extras } = await check({ attachments: [pollSidecar(2, { question: "First?" }), pollSidecar(2, { question: "Second?" }, { name: "poll-slide-002.json" })] });
    expect(codes(report)).toEqual([{ code: "DUPLICATE_POLL_SIDECAR", attachment: "poll-slide-002.json", slide: 2 }]);
    expect(report.pages[1]!.poll).toMatchObject({ filename: "poll-slide-2.json", data: { question: "First?" } });
    expect(report.orphans.map((o) => o.filename)).toEqual(["poll-slide-002.json"]);
    expect(extras.polls?.map((p) => p.question)).toEqual(["First?"]);
  });

  test("duplicate options: POLL_OPTIONS_DUPLICATE names each repeated option once", async () => {
    const { report, extras } = await check({ attachments: [pollSidecar(1, { options: ["Yes", "No", "Yes", "No", "Maybe"] })] });
    const issues = allIssues(report);
    expect(issues.map((i) => i.code)).toEqual(["POLL_OPTIONS_DUPLICATE"]);
    expect(issues[0]!.message).toContain('"Yes", "No"');
    expect(extras.polls).toBeUndefined();
  });

  test("a near-miss name is reported with the convention", async () => {
    const { report } = await check({ attachments: [{ name: "poll_slide_2.json", data: { question: "q", options: ["a", "b"] } }] });
    const issues = allIssues(report);
    expect(issues.map((i) => i.code)).toEqual(["NAME_PATTERN_INVALID"]);
    expect(issues[0]!.message).toContain("poll-slide-{N}.json");
  });

  test("the same byte bounds as every JSON sidecar: over 1 MiB, or a stream that inflates past its cap, is not read", async () => {
    const big = await check({ attachments: [pollSidecar(1, { question: "q".repeat(1_100_000) })] });
    expect(codes(big.report)).toEqual([{ code: "SIDECAR_TOO_LARGE", attachment: "poll-slide-1.json", slide: 1 }]);
    const bomb = await check({ attachments: [{ name: "poll-slide-1.json", encoding: { raw: deflateBomb(4), filter: "FlateDecode" } }] }, { maxAttachmentBytes: 1024 * 1024 });
    expect(codes(bomb.report)).toEqual([{ code: "ATTACHMENT_TOO_LARGE", attachment: "poll-slide-1.json", slide: 1 }]);
    expect([big.extras.polls, bomb.extras.polls]).toEqual([undefined, undefined]);
  });

  test("MCP check_pdf's text lists a poll's findings like any attachment's", async () => {
    const { report } = await check({ attachments: [pollSidecar(2, { options: ["A", "A"] })] });
    expect(describeCheckReport(report)).toContain("- error POLL_OPTIONS_DUPLICATE: poll-slide-2.json: ");
  });

  test("deckhand check's text names the slide's poll, and not an invalid one", async () => {
    const { report } = await check({ attachments: [pollSidecar(2, { options: ["Tabs", "Spaces", "Both"] }), pollSidecar(3, { options: ["Same", "Same"] })] });
    const text = formatReport(report, "deck.pdf");
    expect(text).toContain('Slide 2\n  poll       "Tabs or spaces?" — Tabs / Spaces / Both (one answer) (from poll-slide-2.json)\n  poll       poll-slide-2.json — ok');
    expect(text).toContain("Slide 3\n  poll       poll-slide-3.json — INVALID\n      error   POLL_OPTIONS_DUPLICATE");
  });
});
