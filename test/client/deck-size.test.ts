/**
 * One count of a deck on every screen: the start page and the library say
 * "74 pages · 62 slides" where the presenter's counter reads "/ 62" (slides by page label), and
 * just "12 slides" when every page is a slide.
 */
import { describe, expect, test } from "bun:test";
import { deckSize, slidesOf } from "../../client/src/lib/deck-size.ts";
import { layoutFromLabels, positionOf } from "../../client/src/model/deck-layout.ts";

describe("a deck's size", () => {
  test("a Beamer deck of 74 pages and 62 labelled slides is named both ways, and agrees with the counter", () => {
    // 62 frames; frames 5–16 have two overlays each: 12 extra pages.
    const labels = Array.from({ length: 62 }, (_, i) => (i >= 4 && i < 16 ? [String(i + 1), String(i + 1)] : [String(i + 1)])).flat();
    expect(labels).toHaveLength(74);
    expect(slidesOf(74, labels)).toBe(62);
    expect(deckSize(74, slidesOf(74, labels))).toBe("74 pages · 62 slides");
    expect(positionOf(layoutFromLabels(labels), 1).lastLabel).toBe("62");
  });

  test("pages that are slides are just slides; a deck without labels counts pages as slides", () => {
    expect(deckSize(12, slidesOf(12, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]))).toBe("12 slides");
    expect(deckSize(5, slidesOf(5, []))).toBe("5 slides");
    expect(deckSize(1, slidesOf(1, []))).toBe("1 slide");
  });

  test("before the labels are read (or when they do not fit the pages) only pages are claimed", () => {
    expect(slidesOf(74, undefined)).toBeNull();
    expect(slidesOf(74, ["1", "2"])).toBeNull();
    expect(deckSize(74, null)).toBe("74 pages");
  });
});
