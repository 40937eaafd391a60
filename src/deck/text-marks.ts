/**
 * @module deck/text-marks
 * Text read back from a page as its reader wrote it. pdflatex without `fontenc` (OT1, the
 * default) draws an accented letter as two glyphs: the base letter and a *spacing* accent
 * (`¨`, `´`, `ˆ`…) kerned over it — its text layer reads "ans¨atze", the accent *before* the
 * letter (TeX's `\accent` sets it first); other producers put it after. `normalize("NFC")`
 * cannot help, since a spacing accent is a character of its own. So the accent is moved onto
 * the letter its box lies over (by position, whichever side it was written on) as the
 * combining mark, dotless ı/ȷ take their dot back under a mark above, and the line is
 * composed to NFC: "ansätze", "naïve". A spacing accent over no letter (a real `^` or `~`,
 * which advance past their neighbours) stays as it is. Browser-safe.
 */

/** Spacing accents → the combining mark they stand for. */
const COMBINING: Readonly<Record<string, string>> = {
  "\u00A8": "\u0308", // ¨ diaeresis
  "\u00B4": "\u0301", // ´ acute
  "\u0060": "\u0300", // ` grave (cmr's grave accent maps to the ASCII backtick)
  "\u02CB": "\u0300", // ˋ modifier grave
  "\u02C6": "\u0302", // ˆ circumflex
  "\u005E": "\u0302", // ^ circumflex (some fonts' accent glyph)
  "\u02DC": "\u0303", // ˜ small tilde
  "\u007E": "\u0303", // ~ tilde (some fonts' accent glyph)
  "\u00AF": "\u0304", // ¯ macron
  "\u02C9": "\u0304", // ˉ modifier macron
  "\u02D8": "\u0306", // ˘ breve
  "\u02D9": "\u0307", // ˙ dot above
  "\u02DA": "\u030A", // ˚ ring above
  "\u02DD": "\u030B", // ˝ double acute
  "\u02C7": "\u030C", // ˇ caron
  "\u00B8": "\u0327", // ¸ cedilla
  "\u02DB": "\u0328", // ˛ ogonek
};

/** Marks drawn above the letter: over a dotless ı or ȷ they stand for i or j's own dot's place. */
const ABOVE = /[\u0300-\u030C]/;
const DOTLESS: Readonly<Record<string, string>> = { "\u0131": "i", "\u0237": "j" };
/**
 * An accent counts as drawn over a letter when they share at least this much of the narrower
 * one's width (an accent is often wider than its ı); a real `^` or `~` advances past its neighbours.
 */
const OVERLAP = 0.5;

/** One glyph of a line: its text and its horizontal extent on the page. */
export interface PlacedChar {
  c: string;
  x0: number;
  x1: number;
}

function overlap(a: PlacedChar, b: PlacedChar): number {
  return Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
}

function isLetter(c: string): boolean {
  return /^\p{L}$/u.test(c);
}

/**
 * A line's glyphs as text: each spacing accent drawn over a neighbouring letter becomes that
 * letter's combining mark, and the result is NFC.
 */
export function composeLine(chars: readonly PlacedChar[]): string {
  const marks = new Map<number, string[]>();
  const absorbed = new Set<number>();
  chars.forEach((char, i) => {
    const mark = COMBINING[char.c];
    if (!mark) return;
    const width = char.x1 - char.x0;
    if (!(width > 0)) return;
    let best = -1;
    let bestShare = 0;
    for (const j of [i + 1, i - 1]) {
      const other = chars[j];
      if (!other || COMBINING[other.c] || !isLetter(other.c)) continue;
      const share = overlap(char, other) / Math.min(width, Math.max(other.x1 - other.x0, Number.EPSILON));
      if (share > bestShare) {
        best = j;
        bestShare = share;
      }
    }
    if (best < 0 || bestShare < OVERLAP) return;
    absorbed.add(i);
    marks.set(best, [...(marks.get(best) ?? []), mark]);
  });
  let text = "";
  chars.forEach((char, i) => {
    if (absorbed.has(i)) return;
    const added = marks.get(i);
    if (!added) {
      text += char.c;
      return;
    }
    const base = added.some((m) => ABOVE.test(m)) ? (DOTLESS[char.c] ?? char.c) : char.c;
    text += base + added.join("");
  });
  return text.normalize("NFC");
}

/**
 * Text from any other source (a string the deck stores: an annotation, a notes file): NFC, and
 * a combining mark over a dotless ı/ȷ put back on i/j. Spacing accents are left alone — in a
 * string there is no position to tell which letter one belongs to.
 */
export function normalizeText(text: string): string {
  return text.replace(/([\u0131\u0237])([\u0300-\u030C])/g, (_m, base: string, mark: string) => `${DOTLESS[base] ?? base}${mark}`).normalize("NFC");
}
