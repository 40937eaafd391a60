/**
 * @module deck/sidecar/poll
 * `poll-slide-{N}.json`: `{ "question": string, "options": string[2..6], "multiple"?: boolean }`
 * (schemas/poll-sidecar.schema.json): the poll the presenter opens when slide N is reached.
 * Checked field by field so each finding names the field to fix; lengths count code points,
 * as JSON Schema's minLength/maxLength do, so the checker and the schema agree. Browser-safe.
 */
import { finding, type Finding } from "./findings.ts";
import { describeType, isPlainObject, parseJsonBytes } from "./json-text.ts";
import type { SlidePoll } from "./types.ts";

export interface PollSidecarResult {
  /** The poll as the presenter opens it, or null when the sidecar is unusable. */
  poll: SlidePoll | null;
  issues: Finding[];
}

/**
 * The bounds of schemas/poll-sidecar.schema.json (test/sidecar/property.test.ts holds the two
 * together). A poll the presenter composes by hand should get the same ones, so one deck's
 * poll never fits one surface and not the other.
 */
export const POLL_LIMITS = { questionChars: 200, optionChars: 100, minOptions: 2, maxOptions: 6 } as const;

const KNOWN_FIELDS = new Set(["question", "options", "multiple", "$schema"]);

/** Code points, not UTF-16 units: an emoji is one character to the author and to the schema. */
function chars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function parsePollSidecar(bytes: Uint8Array, where: { attachment: string; slide: number }): PollSidecarResult {
  const parsed = parseJsonBytes(bytes, where.attachment, where.slide);
  if (!parsed.ok) return { poll: null, issues: [parsed.issue] };
  return readPollSidecar(parsed.value, where);
}

/** Validate an already parsed poll sidecar value. */
export function readPollSidecar(value: unknown, where: { attachment: string; slide: number }): PollSidecarResult {
  const { attachment } = where;
  const issues: Finding[] = [];
  const report = (code: "MISSING_FIELD" | "INVALID_FIELD" | "UNKNOWN_FIELD" | "POLL_OPTIONS_DUPLICATE", message: string) => issues.push(finding(code, `${attachment}: ${message}`, where));
  if (!isPlainObject(value)) {
    issues.push(finding("INVALID_FIELD", `${attachment} is ${describeType(value)}; a poll sidecar is a JSON object like {"question": "…", "options": ["…", "…"]}.`, where));
    return { poll: null, issues };
  }
  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) report("UNKNOWN_FIELD", `the field "${key.slice(0, 60)}" is not part of a poll sidecar and is ignored; the fields are "question", "options" and "multiple".`);
  }
  let usable = true;

  let question = "";
  if (!("question" in value)) {
    report("MISSING_FIELD", `the required field "question" is missing; write the question viewers answer.`);
    usable = false;
  } else if (typeof value.question !== "string" || value.question.trim() === "" || chars(value.question) > POLL_LIMITS.questionChars) {
    const what = typeof value.question === "string" ? (value.question.trim() === "" ? "empty" : `${chars(value.question)} characters long`) : describeType(value.question);
    report("INVALID_FIELD", `"question" is ${what}; it must be text of 1 to ${POLL_LIMITS.questionChars} characters.`);
    usable = false;
  } else question = value.question;

  let options: string[] = [];
  if (!("options" in value)) {
    report("MISSING_FIELD", `the required field "options" is missing; list ${POLL_LIMITS.minOptions} to ${POLL_LIMITS.maxOptions} answers.`);
    usable = false;
  } else if (!Array.isArray(value.options)) {
    report("INVALID_FIELD", `"options" is ${describeType(value.options)}; it must be an array of ${POLL_LIMITS.minOptions} to ${POLL_LIMITS.maxOptions} strings.`);
    usable = false;
  } else if (value.options.length < POLL_LIMITS.minOptions || value.options.length > POLL_LIMITS.maxOptions) {
    report("INVALID_FIELD", `"options" has ${value.options.length} ${value.options.length === 1 ? "entry" : "entries"}; a poll has ${POLL_LIMITS.minOptions} to ${POLL_LIMITS.maxOptions} options.`);
    usable = false;
  } else {
    for (const [index, option] of value.options.entries()) {
      if (typeof option !== "string" || option.trim() === "" || chars(option) > POLL_LIMITS.optionChars) {
        const what = typeof option === "string" ? (option.trim() === "" ? "empty" : `${chars(option)} characters long`) : describeType(option);
        report("INVALID_FIELD", `"options"[${index}] is ${what}; each option is text of 1 to ${POLL_LIMITS.optionChars} characters.`);
        usable = false;
      }
    }
    if (usable) {
      options = value.options as string[];
      // Two equal options split one answer's votes and the chart could not tell them apart.
      const seen = new Set<string>();
      const repeated = new Set<string>();
      for (const option of options) (seen.has(option) ? repeated : seen).add(option);
      if (repeated.size > 0) {
        const names = [...repeated].map((o) => JSON.stringify(o.slice(0, 60))).join(", ");
        report("POLL_OPTIONS_DUPLICATE", `"options" lists ${names} more than once; make every option different.`);
        usable = false;
      }
    }
  }

  let multiple = false;
  if ("multiple" in value) {
    if (typeof value.multiple === "boolean") multiple = value.multiple;
    else {
      report("INVALID_FIELD", `"multiple" is ${describeType(value.multiple)}; it must be true (several answers) or false (one answer).`);
      usable = false;
    }
  }
  return { poll: usable ? { slide: where.slide, question, options: [...options], multiple, sidecar: attachment } : null, issues };
}
