/** How the check report names a page: by page and slide label in a deck with builds (the presenter's own count). */
import { describe, expect, test } from "bun:test";
import { nameSlidesIn, pageName, pagesAreNotSlides } from "../../src/deck/page-names.ts";

const BUILDS = ["1", "2", "2", "2", "3"];
const PLAIN = ["1", "2", "3"];

describe("page names", () => {
  test("a deck with builds names page and slide; a deck of plain pages says slide", () => {
    expect(pagesAreNotSlides(BUILDS)).toBe(true);
    expect(pagesAreNotSlides(PLAIN)).toBe(false);
    expect(pageName(4, BUILDS)).toBe("page 4 (slide 2)");
    expect(pageName(2, PLAIN)).toBe("slide 2");
    expect(pagesAreNotSlides(["i", "ii", "1"])).toBe(true);
  });

  test("a finding's own page is renamed, keeping a sentence's capital; other numbers and file names are left", () => {
    expect(nameSlidesIn("Slide 4 has notes from a and b.", 4, BUILDS)).toBe("Page 4 (slide 2) has notes from a and b.");
    expect(nameSlidesIn(`notes-slide-4.json says "slide": 3 but its filename names slide 4; make them agree.`, 4, BUILDS)).toBe(`notes-slide-4.json says "slide": 3 but its filename names page 4 (slide 2); make them agree.`);
    expect(nameSlidesIn("The annotations of page 4 cannot be read; slide 14 and page 40 are other pages.", 4, BUILDS)).toBe("The annotations of page 4 (slide 2) cannot be read; slide 14 and page 40 are other pages.");
    expect(nameSlidesIn("Slide 9 is out of range (the deck has 5 pages)", 9, BUILDS)).toBe("Slide 9 is out of range (the deck has 5 pages)");
    expect(nameSlidesIn("Slide 2 has notes.", 2, PLAIN)).toBe("Slide 2 has notes.");
    expect(nameSlidesIn("no page", undefined, BUILDS)).toBe("no page");
  });
});
