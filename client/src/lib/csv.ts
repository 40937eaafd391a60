/**
 * @module client/lib/csv
 * CSV for spreadsheets, shared by every export (the live talk's questions and polls, the
 * presenter's slide times). Cells hold text a spreadsheet may be tempted to run: an audience
 * question, a slide label from the PDF. And a spreadsheet may read the file with another
 * locale's separator (`;` or a tab instead of `,`): LibreOffice set to `;` splits `a;=1+1` and
 * runs the `=1+1` it starts a cell with. So a cell that a spreadsheet would run as a formula (it
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'` (OWASP's
 * CSV-injection advice), so does such a sign right after a `,`, `;`, tab or line break inside a
 * cell (where a reader splitting on that character starts one), and every cell holding one of
 * those separators, a quote or a line break is quoted per RFC 4180. Numbers are numbers: a
 * negative figure is not text to defuse.
 */

/** A cell a spreadsheet runs as a formula: it starts with one of these (after quotes, which some readers drop). */
const FORMULA_START = /^"*[=+\-@\t\r]/;
/** A formula sign where a reader splitting on `,`, `;`, a tab or a line break starts a cell (quotes between allowed). */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n]"*)([=+\-@])/g;

/** One CSV cell: formula-looking text defused (at its start and after each separator), then quoted when it holds a separator (`,` `;` tab), a quote or a line break. */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === "string") {
    text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row of cells, without its line end. */
export const csvRow = (cells: readonly (string | number | boolean)[]): string => cells.map(csvCell).join(",");

/** Rows as a file: CRLF after every row, the last one too (RFC 4180). */
export const csvFile = (rows: readonly string[]): string => rows.join("\r\n") + "\r\n";
