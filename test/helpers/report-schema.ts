/**
 * Validate check reports against the published schema (`schemas/check-report.schema.json`)
 * with Ajv's 2020-12 draft and formats on. Every test that produces a report calls
 * `expectValidReport(report)`.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "bun:test";
import reportSchema from "../../schemas/check-report.schema.json";
import notesSchema from "../../schemas/notes-sidecar.schema.json";
import mediaSchema from "../../schemas/media-sidecar.schema.json";
import pollSchema from "../../schemas/poll-sidecar.schema.json";
import { FINDING_CODES } from "../../src/deck/sidecar/findings.ts";

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);

export const validateReport = ajv.compile(reportSchema);
export const validateNotesSidecar = ajv.compile(notesSchema);
export const validateMediaSidecar = ajv.compile(mediaSchema);
export const validatePollSidecar = ajv.compile(pollSchema);

/** Assert that `report` validates against the check-report schema and uses only known codes. */
export function expectValidReport(report: unknown): void {
  const valid = validateReport(report);
  if (!valid) throw new Error(`check report does not match schemas/check-report.schema.json:\n${ajv.errorsText(validateReport.errors, { separator: "\n" })}`);
  expect(valid).toBe(true);
  for (const issue of allIssues(report)) {
    expect(Object.keys(FINDING_CODES)).toContain(issue.code);
    expect(issue.level).toBe(FINDING_CODES[issue.code as keyof typeof FINDING_CODES].level);
  }
}

interface LooseIssue {
  code: string;
  level: string;
  message: string;
  slide?: number;
  attachment?: string;
}

/** Every finding of a report (document, page, attachment and notes-file level), flattened. */
export function allIssues(report: unknown): LooseIssue[] {
  const r = report as {
    issues?: LooseIssue[];
    pages?: { notes: { issues: LooseIssue[] } | null; media: { issues: LooseIssue[] }[]; poll?: { issues: LooseIssue[] }; issues: LooseIssue[] }[];
    orphans?: { issues: LooseIssue[] }[];
    documentAttachments?: { issues: LooseIssue[] }[];
    notesFile?: { issues: LooseIssue[] } | null;
  };
  return [
    ...(r.issues ?? []),
    ...(r.pages ?? []).flatMap((p) => [...p.issues, ...(p.notes?.issues ?? []), ...p.media.flatMap((m) => m.issues), ...(p.poll?.issues ?? [])]),
    ...(r.orphans ?? []).flatMap((o) => o.issues),
    ...(r.documentAttachments ?? []).flatMap((o) => o.issues),
    ...(r.notesFile?.issues ?? []),
  ];
}
