/**
 * @module mcp/summary
 * The short human-readable text beside each tool's structuredContent. Many agents only read
 * the text, so it carries what they must act on: the link and its expiry; the verdict and the
 * first problems to fix.
 */
import type { HandoffRecord } from "../handoff/record.ts";

/** How many issue lines the check summary lists before "… and N more". */
const MAX_ISSUE_LINES = 20;

export function describeHandoff(record: HandoffRecord): string {
  return `${record.url}\n${record.next}`;
}

interface IssueLike {
  level?: unknown;
  code?: unknown;
  message?: unknown;
}
interface AttachmentLike {
  filename?: unknown;
  issues?: unknown;
}

function asArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value && typeof value === "object" ? [value] : [];
}

function issueLine(issue: IssueLike, where: string | null): string {
  const level = issue.level === "error" ? "error" : "warning";
  const code = typeof issue.code === "string" ? ` ${issue.code}` : "";
  const prefix = where ? `${where}: ` : "";
  return `- ${level}${code}: ${prefix}${String(issue.message ?? "")}`;
}

/** One verdict line, then the issues (errors first), capped at MAX_ISSUE_LINES. */
export function describeCheckReport(report: Record<string, unknown>): string {
  const summary = (report.summary ?? {}) as Record<string, unknown>;
  const pageCount = Number(report.pageCount ?? 0);
  const total = Number(summary.total ?? 0);
  const verdict = report.ok
    ? total === 0
      ? "OK: no notes or media attachments found"
      : "OK: nothing invalid"
    : "NOT OK: some attachments are invalid and will be ignored when presenting";
  const head =
    `${verdict}. ${pageCount} ${pageCount === 1 ? "page" : "pages"}, ${total} ${total === 1 ? "attachment" : "attachments"} ` +
    `(${Number(summary.valid ?? 0)} valid, ${Number(summary.warning ?? 0)} with warnings, ${Number(summary.invalid ?? 0)} invalid).`;

  const lines: { error: boolean; text: string }[] = [];
  const addIssues = (issues: unknown, where: string | null) => {
    for (const issue of asArray(issues) as IssueLike[]) lines.push({ error: issue.level === "error", text: issueLine(issue, where) });
  };
  addIssues(report.issues, null);
  const attachments: AttachmentLike[] = [];
  for (const page of asArray(report.pages) as Record<string, unknown>[]) {
    addIssues(page.issues, `slide ${String(page.page)}`);
    attachments.push(...(asArray(page.notes) as AttachmentLike[]), ...(asArray(page.media) as AttachmentLike[]));
  }
  attachments.push(...(asArray(report.documentAttachments) as AttachmentLike[]), ...(asArray(report.orphans) as AttachmentLike[]));
  for (const attachment of attachments) addIssues(attachment.issues, typeof attachment.filename === "string" ? attachment.filename : null);

  if (lines.length === 0) return head;
  lines.sort((a, b) => Number(b.error) - Number(a.error));
  const shown = lines.slice(0, MAX_ISSUE_LINES).map((l) => l.text);
  if (lines.length > MAX_ISSUE_LINES) shown.push(`… and ${lines.length - MAX_ISSUE_LINES} more in the structured report.`);
  return `${head}\n${shown.join("\n")}`;
}
