/**
 * Where the live panel opens (issue 21, item 5): over the current slide's pane, inside the
 * viewport, never wider than the panel needs; none (the stylesheet's placement) when the pane
 * is too small to hold it.
 */
import { describe, expect, test } from "bun:test";
import { panelBox } from "../../client/src/live/panel-place.ts";

const viewport = { width: 1280, height: 800 };

describe("live panel placement", () => {
  test("inside the current slide's pane, 8 px in from its edges, at most 460 px wide", () => {
    expect(panelBox({ left: 16, top: 148, width: 837, height: 574 }, viewport)).toEqual({ left: 24, top: 156, width: 460, height: 558 });
  });

  test("a pane on the right (side pane moved left) puts the panel on the right", () => {
    const box = panelBox({ left: 430, top: 148, width: 834, height: 574 }, viewport)!;
    expect(box.left).toBe(438);
    expect(box.left + box.width).toBeLessThanOrEqual(430 + 834);
  });

  test("a narrow pane gives a narrower panel, never past the pane", () => {
    expect(panelBox({ left: 0, top: 100, width: 320, height: 500 }, viewport)).toEqual({ left: 8, top: 108, width: 304, height: 484 });
  });

  test("a pane partly scrolled out of view is cut to the viewport", () => {
    expect(panelBox({ left: 0, top: -200, width: 900, height: 700 }, viewport)).toEqual({ left: 8, top: 8, width: 460, height: 484 });
  });

  test("a pane too small for the panel (a phone) leaves it to the stylesheet", () => {
    expect(panelBox({ left: 0, top: 40, width: 390, height: 200 }, { width: 390, height: 844 })).toBeNull();
    expect(panelBox({ left: 0, top: 40, width: 250, height: 600 }, viewport)).toBeNull();
  });
});
