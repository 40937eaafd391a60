/**
 * Who keeps a key in the presenter window (client/presenter/keymap.ts): a field or splitter
 * all of them; a focused control its Enter and Space, unless the pointer pressed it last (a
 * clicker's Space then steps the talk) or a typed number waits for its Enter; an open modal
 * panel every action but the ones that close or switch it.
 */
import { describe, expect, test } from "bun:test";
import { controlKeepsKey, fieldKeepsKeys, panelKeepsKey, type KeyTarget } from "../../client/src/presenter/keymap.ts";

/** A stand-in for the element a key landed on: `closest` answers from the selectors it is inside. */
function target(inside: Record<string, unknown>): KeyTarget {
  return { closest: (selectors: string) => inside[selectors] ?? null };
}
const CONTROL = "button, a, summary";
const DIALOG = "[role='dialog']:not([hidden])";
const FIELD = "input, textarea, select, [contenteditable='true'], [role='separator']";

describe("fields", () => {
  test("a field or a splitter keeps every key; the stage does not", () => {
    expect(fieldKeepsKeys(target({ [FIELD]: {} }))).toBe(true);
    expect(fieldKeepsKeys(target({}))).toBe(false);
  });
});

describe("focused controls", () => {
  const button = { name: "Black" };
  test("a control the keyboard focused keeps Enter and Space", () => {
    expect(controlKeepsKey("Space", "next", target({ [CONTROL]: button }), null)).toBe(true);
    expect(controlKeepsKey("Enter", "next", target({ [CONTROL]: button }), null)).toBe(true);
  });
  test("a control the pointer pressed last gives Space and Enter to the talk", () => {
    expect(controlKeepsKey("Space", "next", target({ [CONTROL]: button }), button)).toBe(false);
  });
  test("inside an open panel a control keeps them even when clicked", () => {
    expect(controlKeepsKey("Enter", "next", target({ [CONTROL]: button, [DIALOG]: {} }), button)).toBe(true);
  });
  test("a typed number's Enter is the number's; other keys and the bare stage are never kept", () => {
    expect(controlKeepsKey("Enter", "commitEntry", target({ [CONTROL]: button }), null)).toBe(false);
    expect(controlKeepsKey("b", "blackout", target({ [CONTROL]: button }), null)).toBe(false);
    expect(controlKeepsKey("Space", "next", target({}), null)).toBe(false);
  });
});

describe("open panels", () => {
  test("a modal panel lets only the keys that close or switch it act", () => {
    for (const panel of ["overview", "help", "goto", "times", "export"]) {
      expect(panelKeepsKey(panel, "next")).toBe(true);
      for (const closer of ["escape", "overview", "help", "slideTimes", "exportPanel", "gotoPrompt"] as const) expect(panelKeepsKey(panel, closer)).toBe(false);
    }
  });
  test("no panel, or the layout editor, keeps nothing", () => {
    expect(panelKeepsKey("none", "next")).toBe(false);
    expect(panelKeepsKey("layout", "next")).toBe(false);
  });
});
