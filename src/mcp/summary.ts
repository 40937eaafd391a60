/**
 * @module mcp/summary
 * The short human-readable text beside each tool's structuredContent. Many agents only read
 * the text, so it carries what they must act on: the link and its expiry; the verdict and the
 * first problems to fix.
 */
import type { Attachment, CheckReport, Issue } from "../shared/check-report.ts";
import type { HandoffRecord } from "../shared/handoff-record.ts";

/** How many issue lines the check summary lists before "… and N more". */
const MAX_ISSUE_LINES = 20;

export function describeHandoff(record: HandoffRecord): string {
  // The notes file's warnings (e.g. a slide count that differs) are worth an agent's attention.
  const warnings = (record.notes?.warnings ?? []).map((w) => `- warning ${w.code}: ${record.notes?.filename}: ${w.message}`);
  return [record.url, record.next, ...warnings].join("\n");
}

function issueLine(issue: Issue, where: string | null): string {
  const prefix = where ? `${where}: ` : "";
  return `- ${issue.level} ${issue.code}: ${prefix}${issue.message}`;
}

/** One verdict line, then the issues (errors first), capped at MAX_ISSUE_LINES. */
export function describeCheckReport(report: CheckReport): string {
  const { summary, pageCount } = report;
  const verdict = report.ok
    ? summary.total === 0 && !report.notesFile
      ? "OK: no notes or media attachments found"
      : "OK: nothing invalid"
    : report.notesFile?.validity === "invalid" && summary.invalid === 0
      ? "NOT OK: the notes file is invalid and would be refused by present_pdf"
      : "NOT OK: some attachments are invalid and will be ignored when presenting";
  const head =
    `${verdict}. ${pageCount} ${pageCount === 1 ? "page" : "pages"}, ${summary.total} ${summary.total === 1 ? "attachment" : "attachments"} ` +
    `(${summary.valid} valid, ${summary.warning} with warnings, ${summary.invalid} invalid).`;

  const lines: { error: boolean; text: string }[] = [];
  const addIssues = (issues: Issue[], where: string | null) => {
    for (const issue of issues) lines.push({ error: issue.level === "error", text: issueLine(issue, where) });
  };
  addIssues(report.issues, null);
  const attachments: Attachment[] = [];
  for (const page of report.pages) {
    addIssues(page.issues, `slide ${page.page}`);
    attachments.push(...(page.notes ? [page.notes] : []), ...page.media, ...(page.poll ? [page.poll] : []));
  }
  attachments.push(...report.documentAttachments, ...report.orphans);
  for (const attachment of attachments) addIssues(attachment.issues, attachment.filename);
  if (report.notesFile) addIssues(report.notesFile.issues, report.notesFile.filename);

  if (lines.length === 0) return head;
  lines.sort((a, b) => Number(b.error) - Number(a.error));
  const shown = lines.slice(0, MAX_ISSUE_LINES).map((l) => l.text);
  if (lines.length > MAX_ISSUE_LINES) shown.push(`… and ${lines.length - MAX_ISSUE_LINES} more in the structured report.`);
  return `${head}\n${shown.join("\n")}`;
}
