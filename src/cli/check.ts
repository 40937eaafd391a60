/**
 * @module cli/check
 * `deckhand check FILE.pdf [--json] [--notes NOTESFILE]`: run the sidecar check locally,
 * without a server (with `--notes`, the notes file beside the PDF too: a .pdfpc or .pptx).
 * Prints a per-slide summary (or the JSON report) and exits 0 when nothing is invalid
 * (warnings allowed), 1 when something is invalid, 2 when the file is missing, unreadable
 * or not a PDF (and for a usage error) — so it drops into a CI pipeline.
 */
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { AppError, isAppError } from "../errors.ts";
import { notesFilename } from "../handoff/filename.ts";
import { pageName, pagesAreNotSlides } from "../deck/page-names.ts";
import type { AttachmentResult, CheckReport, ReportIssue } from "../pdf/check.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import { PdfPool } from "../pdf/worker/pool.ts";
import { digestFile } from "../upload/digest.ts";
import { NOTES_FILE_MAX_BYTES, notesFileTooLarge } from "../tools/upload-limits.ts";

export const CHECK_USAGE = `Usage: deckhand check FILE.pdf [--json] [--notes NOTESFILE]

Checks the speaker notes and media embedded in a PDF deck (notes-slide-{N}.json,
media-slide-{N}-{id}.json, media-{id}.{gif,mp4,webm}, poll-slide-{N}.json, *.pdfpc,
in-page notes, page media).

  --notes NOTESFILE  check a notes file beside the PDF too: a .pdfpc file, or the
                     PowerPoint .pptx the PDF was exported from
  --json             print the check report as JSON (schema: /schema/check-report.schema.json)
  -h, --help

Exit status: 0 valid (warnings allowed), 1 invalid, 2 missing/unreadable file or not a PDF.`;

export interface CheckIo {
  /** May return a promise: it is awaited, so a pipe gets everything before the process exits. */
  out: (text: string) => unknown;
  err: (text: string) => unknown;
  /** Reads the PDF; by default one worker process with the server's deadline and memory bound. */
  pdf?: PdfReader;
}

// Bun.write resolves once the bytes are written, however slowly a pipe drains; a bare
// process.stdout.write before process.exit cut `check --json | jq` at 64–256 KiB.
const defaultIo: CheckIo = {
  out: (text) => Bun.write(Bun.stdout, text),
  err: (text) => Bun.write(Bun.stderr, text),
};

/** `argv` holds the arguments after `check`. Resolves to the exit code. */
export async function runCheckCommand(argv: string[], io: CheckIo = defaultIo): Promise<number> {
  let json = false;
  let notesPath: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--json") json = true;
    else if (arg === "--notes" || arg.startsWith("--notes=")) {
      const value = arg === "--notes" ? argv[++i] : arg.slice("--notes=".length);
      if (!value) {
        await io.err(`deckhand check: --notes needs a file\n${CHECK_USAGE}\n`);
        return 2;
      }
      notesPath = value;
    } else if (arg === "-h" || arg === "--help") {
      await io.out(`${CHECK_USAGE}\n`);
      return 0;
    } else if (arg.startsWith("-") && arg !== "-") {
      await io.err(`deckhand check: unknown option ${arg}\n${CHECK_USAGE}\n`);
      return 2;
    } else files.push(arg);
  }
  if (files.length !== 1) {
    await io.err(`deckhand check: ${files.length === 0 ? "name one PDF file" : "check one PDF file at a time"}\n${CHECK_USAGE}\n`);
    return 2;
  }
  const path = files[0] as string;
  let report: CheckReport;
  try {
    const info = await stat(path).catch(() => null);
    if (!info || !info.isFile()) {
      await io.err(`deckhand check: ${path}: no such file\n`);
      if (json) await io.out(`${JSON.stringify(new AppError("FILE_MISSING", `${path} does not exist or is not a file.`).toProblem(), null, 2)}\n`);
      return 2;
    }
    if (notesPath !== null) {
      const notesInfo = await stat(notesPath).catch(() => null);
      if (!notesInfo?.isFile()) {
        await io.err(`deckhand check: ${notesPath}: no such file\n`);
        if (json) await io.out(`${JSON.stringify(new AppError("FILE_MISSING", `${notesPath} does not exist or is not a file.`).toProblem(), null, 2)}\n`);
        return 2;
      }
      // The server's limit for a notes part: past it nothing of the file is read.
      if (notesInfo.size > NOTES_FILE_MAX_BYTES) throw notesFileTooLarge(NOTES_FILE_MAX_BYTES);
    }
    const meta = await digestFile(path);
    const own = io.pdf ? null : new PdfPool({ workers: 1 });
    try {
      const notes = notesPath === null ? undefined : { path: notesPath, filename: notesFilename(basename(notesPath)) };
      report = await (io.pdf ?? (own as PdfPool)).check(path, meta, undefined, notes);
    } finally {
      await own?.close();
    }
  } catch (error) {
    const appError = isAppError(error) ? error : new AppError("PDF_UNREADABLE", undefined, { cause: error });
    await io.err(`deckhand check: ${path}: ${appError.detail}\n`);
    if (json) await io.out(`${JSON.stringify(appError.toProblem(), null, 2)}\n`);
    return 2;
  }
  await io.out(json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, path));
  return report.ok ? 0 : 1;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function issueLines(issues: ReportIssue[], indent: string): string[] {
  return issues.map((i) => `${indent}${i.level === "error" ? "error  " : "warning"} ${i.code}: ${i.message}`);
}

function attachmentLines(a: AttachmentResult, indent: string, labels: readonly string[]): string[] {
  const mark = a.validity === "valid" ? "ok" : a.validity === "warning" ? "warning" : "INVALID";
  const label = a.name !== a.filename ? `${a.filename} (${a.name})` : a.filename;
  const where = a.source === "page-annotation" && a.page !== undefined ? `, on ${pagesAreNotSlides(labels) ? pageName(a.page, labels) : `page ${a.page}`}` : "";
  return [`${indent}${a.kind.padEnd(10)} ${label}${where} — ${mark}`, ...issueLines(a.issues, `${indent}    `)];
}

function oneLine(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A usable poll as one line: its question and options, the way viewers will see them. */
function pollLine(data: AttachmentResult["data"]): string | null {
  if (typeof data?.question !== "string" || !Array.isArray(data.options)) return null;
  const options = data.options.map((o) => oneLine(String(o), 24)).join(" / ");
  return `"${oneLine(data.question, 60)}" — ${options} (${data.multiple === true ? "several answers" : "one answer"})`;
}

const LAYOUT_FROM = { xmp: "pdfpc:NotesPosition in the XMP metadata", geometry: "found from the page geometry", override: "set by the presenter" } as const;

/** How many slides the labels make: consecutive pages with one label are one slide, as the presenter counts. */
function slideCount(labels: readonly string[]): number {
  return labels.filter((label, i) => i === 0 || label !== labels[i - 1]).length;
}

/**
 * The human-readable summary: only slides with something to say are listed. In a deck with
 * builds a page is named with its slide, "Page 14 (slide 10)", as the presenter counts.
 */
export function formatReport(report: CheckReport, label: string): string {
  const lines: string[] = [];
  const s = report.summary;
  const labels = report.pages.map((p) => p.label ?? String(p.page));
  const size = pagesAreNotSlides(labels) ? `${plural(report.pageCount, "page")} (${plural(slideCount(labels), "slide")})` : plural(report.pageCount, "page");
  lines.push(`${label}: ${size}, ${plural(s.total, "attachment")} (${s.valid} valid, ${s.warning} with warnings, ${s.invalid} invalid)`);
  for (const page of report.pages) {
    const attachments = [...(page.notes ? [page.notes] : []), ...page.media, ...(page.poll ? [page.poll] : [])];
    if (attachments.length === 0 && !page.presenterNotes && page.issues.length === 0) continue;
    const name = pageName(page.page, labels);
    lines.push("", name.charAt(0).toUpperCase() + name.slice(1));
    if (page.presenterNotes) {
      const from = page.presenterNotes.attachment ? `${page.presenterNotes.source}: ${page.presenterNotes.attachment}` : page.presenterNotes.source;
      lines.push(`  notes      "${oneLine(page.presenterNotes.text)}" (from ${from})`);
    }
    const poll = page.poll?.validity !== "invalid" ? pollLine(page.poll?.data) : null;
    if (poll) lines.push(`  poll       ${poll} (from ${page.poll?.filename})`);
    for (const a of attachments) lines.push(...attachmentLines(a, "  ", labels));
    lines.push(...issueLines(page.issues, "  "));
  }
  const t = report.timer;
  const timer = [t.durationMinutes !== undefined ? `${t.durationMinutes} min talk` : null, t.endTime ? `ends at ${t.endTime}` : null, t.lastMinutes !== undefined ? `warn ${t.lastMinutes} min before the end` : null, t.endSlide !== undefined ? `the talk ends with its slide ${t.endSlide} (later slides are backup)` : null].filter(Boolean);
  const layout = report.notesLayout;
  if (report.documentAttachments.length > 0 || timer.length > 0 || layout.kind !== "none") {
    lines.push("", "Whole deck");
    // Beamer's notes on a second screen: the one line that tells an author the projector will
    // show only the slide half (or, with no layout found, the whole page).
    if (layout.kind !== "none") lines.push(`  layout     notes on the ${layout.position} half of every page (${LAYOUT_FROM[layout.from ?? "geometry"]}); the audience sees the other half`);
    for (const a of report.documentAttachments) lines.push(...attachmentLines(a, "  ", labels));
    if (timer.length > 0) lines.push(`  timer      ${timer.join(", ")}`);
  }
  const notesFile = report.notesFile;
  if (notesFile) {
    const mark = notesFile.validity === "valid" ? "ok" : notesFile.validity === "warning" ? "warning" : "INVALID";
    const slides = notesFile.slidesWithNotes.length;
    lines.push("", "Notes file beside the PDF");
    lines.push(`  ${(notesFile.kind ?? "unknown").padEnd(10)} ${notesFile.filename} — ${mark}${notesFile.kind ? `, notes for ${plural(slides, "slide")}` : ""}`);
    lines.push(...issueLines(notesFile.issues, "      "));
  }
  if (report.orphans.length > 0) {
    lines.push("", "Not used by any slide");
    for (const a of report.orphans) lines.push(...attachmentLines(a, "  ", labels));
  }
  if (report.issues.length > 0) {
    lines.push("", "PDF structure");
    lines.push(...issueLines(report.issues, "  "));
  }
  lines.push("", report.ok ? (s.warning > 0 ? "Valid, with warnings." : "Valid.") : "Invalid: fix the errors above.");
  return `${lines.join("\n")}\n`;
}
