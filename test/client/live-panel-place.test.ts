/**
 * Where the Live and Questions panels open: never over the current slide. On a laptop screen
 * (1280×800, 1920×1080, 1024×700) the panel docks at the pane's outer edge — away from the
 * column of next slide, timer and notes — and the slide keeps the rest of the pane; where the
 * pane is too narrow to share (a phone upright or on its side) the panel takes the largest free
 * part of the window beside or below the slide, above the footer; in a small window with no
 * part free at ease the slide makes room if it stays a fair size, else the panel takes a
 * smaller free part, else the slide makes room whatever it keeps.
 */
import { describe, expect, test } from "bun:test";
import { panelPlacement, type Rect } from "../../client/src/live/panel-place.ts";

/** What the slide keeps of the pane when the panel docks. */
function slideRoom(pane: Rect, box: Rect, dock: "left" | "right"): Rect {
  return dock === "left" ? { ...pane, left: box.left + box.width + 8, width: pane.width - box.width - 8 } : { ...pane, width: pane.width - box.width - 8 };
}
const overlaps = (a: Rect, b: Rect) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe("on a laptop screen the panel docks beside the slide", () => {
  test("1280×800: on the pane's left (the column is on the right), 38% of it, the slide keeps the rest", () => {
    const pane = { left: 16, top: 148, width: 837, height: 574 };
    const place = panelPlacement(pane, { width: 1280, height: 800, bottom: 738 }, false);
    expect(place).toEqual({ dock: "left", box: { left: 16, top: 148, width: 318, height: 574 } });
    expect(slideRoom(pane, place.box, "left").width).toBeGreaterThan(500);
  });

  test("1920×1080: at most 440 px wide", () => {
    const place = panelPlacement({ left: 16, top: 148, width: 1272, height: 850 }, { width: 1920, height: 1080 }, false);
    expect(place.dock).toBe("left");
    expect(place.box.width).toBe(440);
  });

  test("the column moved left: the panel docks on the pane's right edge", () => {
    const pane = { left: 430, top: 148, width: 834, height: 574 };
    const place = panelPlacement(pane, { width: 1280, height: 800 }, true);
    expect(place.dock).toBe("right");
    expect(place.box.left + place.box.width).toBe(430 + 834);
    expect(overlaps(place.box, slideRoom(pane, place.box, "right"))).toBe(false);
  });

  test("a pane partly out of view is cut to the window and the footer", () => {
    expect(panelPlacement({ left: 0, top: -200, width: 900, height: 1100 }, { width: 1280, height: 800, bottom: 740 }, false).box).toEqual({ left: 0, top: 0, width: 342, height: 740 });
  });
});

describe("on a phone the panel takes the free space around the slide", () => {
  test("upright (390×844): below the slide, above the footer, the phone's width", () => {
    const pane = { left: 12, top: 60, width: 366, height: 206 };
    const place = panelPlacement(pane, { width: 390, height: 844, bottom: 790 }, false);
    expect(place).toEqual({ dock: null, box: { left: 8, top: 274, width: 374, height: 508 } });
    expect(overlaps(place.box, pane)).toBe(false);
  });

  test("on its side (844×390): right of the slide", () => {
    const pane = { left: 10, top: 40, width: 490, height: 300 };
    const place = panelPlacement(pane, { width: 844, height: 390, bottom: 350 }, false);
    expect(place.dock).toBeNull();
    expect(place.box.left).toBe(508);
    expect(overlaps(place.box, pane)).toBe(false);
  });

});

describe("in a small window with no part free at ease, never over the slide either", () => {
  test("a short window (900×505), the slide across it: the slide makes room, fitted beside the panel at half the pane's width", () => {
    const pane = { left: 12, top: 53, width: 876, height: 227 };
    const place = panelPlacement(pane, { width: 900, height: 505, bottom: 449 }, false);
    expect(place).toEqual({ dock: "left", box: { left: 12, top: 53, width: 333, height: 227 } });
    const room = slideRoom(pane, place.box, "left");
    expect(room.width).toBeGreaterThan(500);
    expect(overlaps(place.box, room)).toBe(false);
  });

  test("a small window on its side (600×400): making room would leave the slide too small, so the panel takes the side column's place", () => {
    const pane = { left: 10, top: 36, width: 336, height: 300 };
    const place = panelPlacement(pane, { width: 600, height: 400, bottom: 344 }, false);
    expect(place).toEqual({ dock: null, box: { left: 354, top: 36, width: 238, height: 300 } });
    expect(overlaps(place.box, pane)).toBe(false);
  });

  test("no free part at all: the slide makes room whatever it keeps — the panel is never over it", () => {
    const pane = { left: 0, top: 0, width: 320, height: 300 };
    for (const sideOnLeft of [false, true]) {
      const place = panelPlacement(pane, { width: 320, height: 400 }, sideOnLeft);
      expect(place).toEqual({ dock: sideOnLeft ? "right" : "left", box: { left: sideOnLeft ? 80 : 0, top: 0, width: 240, height: 300 } });
      expect(overlaps(place.box, slideRoom(pane, place.box, place.dock!))).toBe(false);
    }
  });
});
