/**
 * @module cli/check
 * `deckhand check FILE.pdf… [--json] [--notes NOTESFILE]`: run the sidecar check locally,
 * without a server, on one PDF or several (with `--notes`, one PDF and the notes file beside
 * it: a .pdfpc or .pptx). Prints a per-slide summary (or the JSON report) per file and exits
 * 0 when nothing is invalid (warnings allowed), 1 when something is invalid, 2 when a file is
 * missing, unreadable or not a PDF (and for a usage error) — so it drops into a CI pipeline.
 *
 * mupdf runs in this process (pdf/in-process) and loads once for all the files: a worker
 * process would load it again, which cost ~15× poppler's pdfinfo + pdfdetach on a small deck.
 */
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { AppError, isAppError } from "../base/errors.ts";
import { notesFilename } from "../security/filename.ts";
import { pageName, pagesAreNotSlides } from "../deck/page-names.ts";
import type { AttachmentResult, CheckReport, ReportIssue } from "../pdf/check.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import { PDF_MEMORY_BYTES, PDF_TIMEOUT_MS } from "../pdf/bounds.ts";
import { InProcessPdfReader, type InProcessOptions, type LastWords } from "../pdf/in-process.ts";
import { digestFile } from "../upload/digest.ts";
import { NOTES_FILE_MAX_BYTES, notesFileTooLarge } from "../tools/upload-limits.ts";

export const CHECK_USAGE = `Usage: deckhand check FILE.pdf… [--json]
       deckhand check FILE.pdf --notes NOTESFILE [--json]

Checks the speaker notes and media embedded in PDF decks (notes-slide-{N}.json,
media-slide-{N}-{id}.json, media-{id}.{gif,mp4,webm}, poll-slide-{N}.json, *.pdfpc,
in-page notes, page media).

  --notes NOTESFILE  check a notes file beside the PDF too: a .pdfpc file, or the
                     PowerPoint .pptx the PDF was exported from (one PDF only)
  --json             print the check report as JSON (schema: /schema/check-report.schema.json);
                     with several files, a JSON array with one {"file", "report"} or
                     {"file", "problem"} object per file, in the order given
  --pdf-timeout S    seconds one PDF may take to read (${PDF_TIMEOUT_MS / 1000}, as the server)
  --pdf-memory-mb N  memory the check may use while it reads one PDF (${PDF_MEMORY_BYTES / (1024 * 1024)}, as the server)
  -h, --help

A PDF past either bound is PDF_TOO_COMPLEX, as on the server, and ends the run: the files
after it are not checked.

Exit status: 2 when any file is missing, unreadable or not a PDF (or for a usage error);
otherwise 1 when any file is invalid; otherwise 0 (all valid, warnings allowed).`;

export interface CheckIo {
  /** May return a promise: it is awaited, so a pipe gets everything before the process exits. */
  out: (text: string) => unknown;
  err: (text: string) => unknown;
  /** Reads the PDFs; by default mupdf in this process with the server's deadline and memory bound. */
  pdf?: PdfReader;
  /** The default reader's bounds (tests make them tiny); the server's defaults otherwise. */
  limits?: Partial<Pick<InProcessOptions, "timeoutMs" | "memoryBytes">>;
}

// Bun.write resolves once the bytes are written, however slowly a pipe drains; a bare
// process.stdout.write before process.exit cut `check --json | jq` at 64–256 KiB.
const defaultIo: CheckIo = {
  out: (text) => Bun.write(Bun.stdout, text),
  err: (text) => Bun.write(Bun.stderr, text),
};

/** The server's flags for the bounds of one file, with its ranges (base/config.ts). */
const BOUND_FLAGS = [
  { name: "--pdf-timeout", key: "timeoutMs", min: 0.1, max: 3600, scale: (seconds: number) => Math.round(seconds * 1000) },
  { name: "--pdf-memory-mb", key: "memoryBytes", min: 128, max: 1_000_000, scale: (mb: number) => Math.floor(mb * 1024 * 1024) },
] as const;

/** One file's outcome: its report, or the problem that kept it from being checked. */
type Outcome = { report: CheckReport } | { problem: AppError; errLine: string };

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** A JSON array entry, indented one level under the array's bracket. */
function arrayEntry(file: string, outcome: Outcome): string {
  const body = "report" in outcome ? { file, report: outcome.report } : { file, problem: outcome.problem.toProblem() };
  return pretty(body).replace(/^/gm, "  ");
}

/** The text section of a file that was not checked. */
function unreadableSection(file: string, problem: AppError): string {
  return `${file}: not checked (${problem.code})\n`;
}

/** The last line of a run over several files. */
function runSummary(files: number, valid: number, invalid: number, unchecked: number): string {
  return `${plural(files, "file")}: ${valid} valid, ${invalid} invalid, ${unchecked} not checked.\n`;
}

/** `argv` holds the arguments after `check`. Resolves to the exit code. */
export async function runCheckCommand(argv: string[], io: CheckIo = defaultIo): Promise<number> {
  let json = false;
  let notesPath: string | null = null;
  const files: string[] = [];
  const bounds: NonNullable<CheckIo["limits"]> = { ...io.limits };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const bound = BOUND_FLAGS.find((flag) => arg === flag.name || arg.startsWith(`${flag.name}=`));
    if (arg === "--json") json = true;
    else if (arg === "--notes" || arg.startsWith("--notes=")) {
      const value = arg === "--notes" ? argv[++i] : arg.slice("--notes=".length);
      if (!value) {
        await io.err(`deckhand check: --notes needs a file\n${CHECK_USAGE}\n`);
        return 2;
      }
      notesPath = value;
    } else if (bound) {
      const raw = arg === bound.name ? argv[++i] : arg.slice(bound.name.length + 1);
      const value = Number(raw);
      if (raw === undefined || raw === "" || !Number.isFinite(value) || value < bound.min || value > bound.max) {
        await io.err(`deckhand check: ${bound.name} must be a number from ${bound.min} to ${bound.max}, got "${raw ?? ""}"\n${CHECK_USAGE}\n`);
        return 2;
      }
      bounds[bound.key] = bound.scale(value);
    } else if (arg === "-h" || arg === "--help") {
      await io.out(`${CHECK_USAGE}\n`);
      return 0;
    } else if (arg.startsWith("-") && arg !== "-") {
      await io.err(`deckhand check: unknown option ${arg}\n${CHECK_USAGE}\n`);
      return 2;
    } else files.push(arg);
  }
  if (files.length === 0) {
    await io.err(`deckhand check: name one PDF file or more\n${CHECK_USAGE}\n`);
    return 2;
  }
  if (notesPath !== null && files.length > 1) {
    await io.err(`deckhand check: --notes goes with one PDF (it holds one deck's notes); check each deck with its notes file on its own\n${CHECK_USAGE}\n`);
    return 2;
  }
  const many = files.length > 1;
  const counts = { valid: 0, invalid: 0, unchecked: 0 };
  let current = 0;
  // Written before each file is read, for the watchdog: a file past a bound ends the process.
  const lastWords = (problem: AppError): LastWords => {
    const path = files[current] as string;
    const later = files.slice(current + 1);
    const errLine = `deckhand check: ${path}: ${problem.detail}\n`;
    if (!many) return { err: errLine, out: json ? `${pretty(problem.toProblem())}\n` : "", exitCode: 2 };
    const stopped = later.length > 0 ? `deckhand check: stopped at ${path}; not checked: ${later.join(", ")}\n` : "";
    const out = json
      ? `${current > 0 ? ",\n" : ""}${arrayEntry(path, { problem, errLine })}\n]\n`
      : `${current > 0 ? "\n" : ""}${unreadableSection(path, problem)}\n${runSummary(files.length, counts.valid, counts.invalid, counts.unchecked + 1 + later.length)}`;
    return { err: errLine + stopped, out, exitCode: 2 };
  };
  const own = io.pdf ? null : new InProcessPdfReader({ ...bounds, lastWords });
  const reader = io.pdf ?? (own as InProcessPdfReader);
  let status = 0;
  try {
    if (many && json) await io.out("[\n");
    for (; current < files.length; current++) {
      const path = files[current] as string;
      const outcome = await checkOne(reader, path, notesPath);
      if ("problem" in outcome) {
        status = 2;
        counts.unchecked++;
        await io.err(outcome.errLine);
      } else {
        if (!outcome.report.ok) status = Math.max(status, 1);
        counts[outcome.report.ok ? "valid" : "invalid"]++;
      }
      if (!many) {
        if ("report" in outcome) await io.out(json ? `${pretty(outcome.report)}\n` : formatReport(outcome.report, path));
        else if (json) await io.out(`${pretty(outcome.problem.toProblem())}\n`);
      } else if (json) {
        await io.out(`${current > 0 ? ",\n" : ""}${arrayEntry(path, outcome)}`);
      } else {
        await io.out(`${current > 0 ? "\n" : ""}${"report" in outcome ? formatReport(outcome.report, path) : unreadableSection(path, outcome.problem)}`);
      }
    }
    if (many) await io.out(json ? "\n]\n" : `\n${runSummary(files.length, counts.valid, counts.invalid, counts.unchecked)}`);
  } finally {
    own?.close();
  }
  return status;
}

/** Check one PDF (with `notesPath`, its notes file too); every failure becomes a problem. */
async function checkOne(reader: PdfReader, path: string, notesPath: string | null): Promise<Outcome> {
  try {
    const info = await stat(path).catch(() => null);
    if (!info || !info.isFile()) {
      return { problem: new AppError("FILE_MISSING", `${path} does not exist or is not a file.`), errLine: `deckhand check: ${path}: no such file\n` };
    }
    if (notesPath !== null) {
      const notesInfo = await stat(notesPath).catch(() => null);
      if (!notesInfo?.isFile()) {
        return { problem: new AppError("FILE_MISSING", `${notesPath} does not exist or is not a file.`), errLine: `deckhand check: ${notesPath}: no such file\n` };
      }
      // The server's limit for a notes part: past it nothing of the file is read.
      if (notesInfo.size > NOTES_FILE_MAX_BYTES) throw notesFileTooLarge(NOTES_FILE_MAX_BYTES);
    }
    const meta = await digestFile(path);
    const notes = notesPath === null ? undefined : { path: notesPath, filename: notesFilename(basename(notesPath)) };
    return { report: await reader.check(path, meta, undefined, notes) };
  } catch (error) {
    const problem = isAppError(error) ? error : new AppError("PDF_UNREADABLE", undefined, { cause: error });
    return { problem, errLine: `deckhand check: ${path}: ${problem.detail}\n` };
  }
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
