import { describe, expect, test } from "bun:test";
import { displayTitle, FALLBACK_TITLE } from "../../src/security/filename.ts";

describe("displayTitle", () => {
  const cases: Array<[string | null, string]> = [
    ["Q3 review.pdf", "Q3 review"],
    ["deck.PDF", "deck"],
    ["deck.pdf.pdf", "deck.pdf"],
    ["../../etc/passwd.pdf", "passwd"],
    ["C:\\talks\\Keynote.pdf", "Keynote"],
    ["evil\r\nX-Injected: 1.pdf", "evilX-Injected: 1"],
    ["report\u202Efdp.exe.pdf", "reportfdp.exe"],
    ["zero\u200Bwidth\uFEFF.pdf", "zerowidth"],
    ["  spaced  .pdf", "spaced"],
    ["café.pdf", "café"],
    ["e\u0301cole.pdf", "\u00e9cole"],
    ["", FALLBACK_TITLE],
    [null, FALLBACK_TITLE],
    ["...", FALLBACK_TITLE],
    ["\u0000\u0001.pdf", FALLBACK_TITLE],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      expect(displayTitle(input)).toBe(expected);
    });
  }

  test("long names are cut to 200 code points without splitting a surrogate pair", () => {
    const title = displayTitle(`${"😀".repeat(300)}.pdf`);
    expect(Array.from(title)).toHaveLength(200);
    expect(title).toBe("😀".repeat(200));
  });
});
