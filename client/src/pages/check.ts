/**
 * @module client/pages/check
 * /check — send a PDF to POST /api/check and show the report slide by slide: a thumbnail
 * (rendered here, from the same file), the notes the presenter shows (rendered as the
 * presenter renders them: sanitised markdown, or text as written), the media, and every
 * finding. Every other string in the report comes from the PDF and is shown as text, never as
 * HTML.
 */
import { $, h, replace } from "../lib/dom.ts";
import { formatBytes } from "../lib/format.ts";
import { renderNotes } from "../lib/notes.ts";
import { readProblem } from "../lib/problem.ts";
import { paint, Renderer } from "../lib/renderer.ts";
import { pageName } from "../../../src/deck/page-names.ts";
// The one report type, generated from schemas/check-report.schema.json (scripts/gen-types.ts).
import type { Attachment as AttachmentResult, CheckReport as Report, Issue, Page as PageResult } from "../../../src/shared/check-report.ts";

const status = $("#status");
const reportEl = $("#report");
const input = $("#file-input") as HTMLInputElement;

function issueList(issues: Issue[] | undefined): HTMLElement | null {
  if (!issues?.length) return null;
  return h("ul", { class: "issues" }, ...issues.map((i) => h("li", { class: `issue issue-${i.level}` }, h("span", { class: "badge" }, i.level === "error" ? "Error" : "Warning"), " ", i.message, i.code ? h("code", { class: "issue-code" }, i.code) : null)));
}

function attachment(a: AttachmentResult): HTMLElement {
  const meta = [a.kind, a.mimeType ?? a.sniffedType, a.bytes !== null ? formatBytes(a.bytes) : null, a.source === "page-annotation" ? "attached to the page" : null].filter(Boolean).join(" · ");
  return h(
    "div",
    { class: `attachment validity-${a.validity}` },
    h("div", { class: "attachment-head" }, h("span", { class: `badge badge-${a.validity}` }, a.validity), " ", h("code", {}, a.filename), meta ? h("span", { class: "muted" }, ` ${meta}`) : null),
    a.text ? h("pre", { class: "notes-text" }, a.text) : null,
    issueList(a.issues),
  );
}

/** Where the presenter's notes of a page come from, as the speaker would say it. */
const NOTES_FROM: Record<NonNullable<PageResult["presenterNotes"]>["source"], string> = {
  "notes-sidecar": "a notes sidecar",
  "notes-file": "the notes file beside the PDF",
  pdfpc: "the attached .pdfpc",
  "notes-page": "the notes half of the page",
  annotation: "in-page notes",
};

/** The notes the presenter shows on this page, rendered as it renders them. */
function presenterNotes(page: PageResult): HTMLElement | null {
  const notes = page.presenterNotes;
  if (!notes) return null;
  const body = h("div", { class: "rendered-notes", "data-format": notes.format ?? "markdown" });
  body.append(renderNotes(notes.text, notes.format ?? "markdown"));
  return h("div", { class: "presenter-notes" }, h("p", { class: "muted" }, `The presenter shows, from ${NOTES_FROM[notes.source]}${notes.attachment ? ` (${notes.attachment})` : ""}:`), body);
}

function asArray<T>(value: T | T[] | null | undefined): T[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function renderReport(report: Report, renderer: Renderer | null) {
  const s = report.summary;
  const doc = report.document;
  const header = h(
    "section",
    { class: `report-summary ${report.ok === false ? "is-bad" : "is-good"}` },
    h("h2", {}, report.ok === false ? "Problems found" : "Ready to present"),
    h("p", { class: "muted" }, [doc?.title ? `“${doc.title}”` : null, `${report.pageCount} pages`, doc?.bytes ? formatBytes(doc.bytes) : null, doc?.pdfVersion ? `PDF ${doc.pdfVersion}` : null].filter(Boolean).join(" · ")),
    s ? h("dl", { class: "counts" },
      h("div", {}, h("dt", {}, "Attachments"), h("dd", {}, String(s.total))),
      h("div", { class: "c-valid" }, h("dt", {}, "Valid"), h("dd", {}, String(s.valid))),
      h("div", { class: "c-warning" }, h("dt", {}, "Warnings"), h("dd", {}, String(s.warning))),
      h("div", { class: "c-invalid" }, h("dt", {}, "Invalid"), h("dd", {}, String(s.invalid))),
    ) : null,
    issueList(report.issues),
  );
  const pages = h("ol", { class: "report-pages" });
  // A deck with builds: "Page 14 (slide 10)", as the presenter counts (deck/page-names).
  const labels = report.pages.map((p) => p.label ?? String(p.page));
  for (const page of report.pages) {
    const notes = asArray(page.notes);
    const media = page.media ?? [];
    const name = pageName(page.page, labels).replace(/^./, (c) => c.toUpperCase());
    const canvas = h("canvas", { class: "report-thumb", "aria-label": name });
    if (renderer) void renderer.renderOnce(page.page, 320 * Math.min(devicePixelRatio || 1, 2), 10).then((r) => paint(canvas, r), () => {});
    pages.append(
      h("li", { class: "report-page" },
        h("div", { class: "report-page-thumb" }, canvas, h("span", { class: "thumb-num" }, name)),
        h("div", { class: "report-page-body" },
          h("h3", {}, "Notes"),
          presenterNotes(page),
          notes.length ? h("div", {}, ...notes.map(attachment)) : page.presenterNotes ? null : h("p", { class: "muted" }, "No notes."),
          h("h3", {}, "Media"),
          media.length ? h("div", {}, ...media.map(attachment)) : h("p", { class: "muted" }, "No media."),
        ),
      ),
    );
  }
  const orphans = report.orphans?.length
    ? h("section", { class: "report-orphans" }, h("h2", {}, "Not used by any slide"), ...report.orphans.map(attachment))
    : null;
  replace(reportEl, header, pages, orphans);
}

async function check(file: File) {
  replace(reportEl);
  status.classList.remove("status-error");
  replace(status, `Checking “${file.name}” (${formatBytes(file.size)})…`);
  const form = new FormData();
  form.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch("/api/check", { method: "POST", body: form });
  } catch {
    status.classList.add("status-error");
    return replace(status, "The server could not be reached. Checking needs a connection to the deckhand server.");
  }
  const problem = response.ok ? null : await readProblem(response);
  const body = response.ok ? ((await response.json().catch(() => null)) as Report | null) : null;
  if (!body) {
    status.classList.add("status-error");
    return replace(status, problem?.detail ?? problem?.title ?? `The check failed (HTTP ${response.status}).`);
  }
  replace(status, "");
  let renderer: Renderer | null = new Renderer();
  try {
    await renderer.open(await file.arrayBuffer());
  } catch {
    renderer.terminate();
    renderer = null;
  }
  renderReport(body, renderer);
  document.body.dataset.ready = "true";
}

$("#choose").addEventListener("click", () => input.click());
input.addEventListener("change", () => {
  const file = input.files?.[0];
  if (file) void check(file);
  input.value = "";
});
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) void check(file);
});
