/**
 * The record explains itself: no code, test, benchmark, script, schema or docs page points at
 * something a reader of this repository cannot open — a tracker's "issue 23", "issue "Stage
 * tools" item 4", "finding 7", a design contract's "DESIGN §3.2" or a specification's "spec §8".
 * Say the reason in place, or link the docs page that states the rule (the decisions and their
 * reasons are in docs/development/design.md). A bug of another project is named by its
 * address, which anyone can open (oven-sh/bun#25145), and is not a pointer.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

// The timeout of each test here: it reads about a thousand files (0.2 s on a quiet machine, 7.5 s
// at load 40), so about 100× that.
setDefaultTimeout(30_000);

const ROOT = resolve(import.meta.dir, "../..");
/** Everything a reader of the repository reads: the sources, the tests and the docs. */
const SCANNED = ["src", "client", "test", "bench", "scripts", "schemas", "deploy", "docs", "README.md", "types"];
const TEXT = /\.(ts|tsx|js|mjs|css|html|md|json|jsonc|sh|txt|ya?ml|toml)$|(^|\/)Dockerfile[^/]*$|(^|\/)Caddyfile$/;
/** Generated or vendored text: not written by hand, not read as the record. */
const SKIPPED = /(^|\/)node_modules(\/|$)|\.gen\.ts$|(^|\/)(client-dist|dist|test-output)(\/|$)/;
const SELF = relative(ROOT, import.meta.path);

/** Each pointer form, with what it catches; one line may carry several. */
const POINTERS: { name: string; pattern: RegExp }[] = [
  // "issue 23", "Issue 20", "issues 21 and 22", "issue #5" — not a URL's ".../issues/5".
  { name: "an issue number", pattern: /(?<![/\w])issues? ?#?\d+/gi },
  // issue "Stage tools": an issue named by its title.
  { name: "an issue by title", pattern: /\bissue ["“][^"”]+["”]/gi },
  { name: "the issue's words", pattern: /\bthe issue(?:'s)?\b/gi },
  // "finding 7" of a review nobody can read.
  { name: "a review's finding", pattern: /\bfinding \d+\b/gi },
  // "item 4:", "(item 8)", "items 2 and 3": an issue's numbered item, as a test name or a reason.
  { name: "an issue's item", pattern: /\bitems? \d+(?:[–-]\d+)?(?=[:,);]| and \d)/gi },
  { name: "a design-contract section", pattern: /\bDESIGN(?:\.md)? ?§/g },
  { name: "the design contract", pattern: /\bDESIGN\.md\b/g },
  { name: "a specification section", pattern: /\bspec(?:\.md)? ?§/gi },
  { name: "the specification file", pattern: /\bservice-spec\b/gi },
];

function files(path: string): string[] {
  const rel = relative(ROOT, path);
  if (SKIPPED.test(rel)) return [];
  if (statSync(path).isDirectory()) return readdirSync(path).flatMap((name) => files(join(path, name)));
  return TEXT.test(rel) && rel !== SELF ? [rel] : [];
}

/** A line as it reads after the one before: its indent and comment marker (`//`, `*`, `#`, `>`) dropped. */
const continued = (line: string) => line.replace(/^\s*(?:\/\/|\*|#|>)?\s*/, "");

/** Every pointer in `text`, as `line: the match (the form)`; one wrapped onto the next line counts at its start. */
function pointersIn(text: string): string[] {
  const lines = text.split("\n");
  const found: string[] = [];
  lines.forEach((line, i) => {
    const end = line.trimEnd().length;
    const next = lines[i + 1];
    const joined = next === undefined ? line : `${line.trimEnd()} ${continued(next)}`;
    for (const { name, pattern } of POINTERS) {
      for (const match of joined.matchAll(pattern)) if (match.index < end) found.push(`${i + 1}: "${match[0]}" (${name})`);
    }
  });
  return found;
}

describe("no pointer a reader cannot open", () => {
  test("each form is caught, and what can be opened or is plain English is not", () => {
    for (const pointer of [
      "the audience talks back (issue 23): questions",
      "// Issue 20, finding 9: Bun answers these",
      'Stage tools end to end (issue "Stage tools")',
      "the issue's bound is 0.25 s",
      'it("item 4: overlays step page by page"',
      "(issue 21, item 8)",
      "Benchmark of the sidecar check (DESIGN §7).",
      "see DESIGN.md",
      "The form field that carries the PDF (spec §4.1).",
      "spec/service-spec.md",
      "fixed in issue #12",
      // Wrapped: "Since issue" at the end of one line, the number on the next.
      "Scalar is never precached. Since issue\n24 each command is a bundle",
      " * the bound of issue\n * 12 holds",
    ]) {
      expect({ pointer, found: pointersIn(pointer).length > 0 }).toEqual({ pointer, found: true });
    }
    for (const fine of [
      "a Bun bug (oven-sh/bun#25145)",
      "https://github.com/oven-sh/bun/issues/25145",
      "RFC 9110 §14.1.2 and ISO 32000 §13.2",
      "the decisions are in docs/development/design.md",
      "the report's issues[] per attachment; an issue's code",
      "the menu's item 3 of 5 is focused",
      "a spec of the poll (PollSpec)",
    ]) {
      expect({ fine, found: pointersIn(fine) }).toEqual({ fine, found: [] });
    }
  });

  test("code, tests, benchmarks, scripts, schemas and docs carry none", () => {
    const scanned = SCANNED.flatMap((entry) => files(join(ROOT, entry)));
    expect(scanned.length).toBeGreaterThan(500);
    const offenders = scanned.flatMap((rel) => pointersIn(readFileSync(join(ROOT, rel), "utf8")).map((hit) => `${rel}:${hit}`));
    // The list names each file, line and form: say the reason there, or link the docs page.
    expect(offenders).toEqual([]);
  });
});
