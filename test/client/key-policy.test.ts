/**
 * Who keeps a key in the presenter window (client/presenter/keymap.ts): a text field or a
 * splitter every key; a control the keyboard focused (Tab) the keys that operate it — Enter
 * and Space for a button or a checkbox, the arrows for a radio group, a slider or a list; a
 * control the pointer pressed nothing at all (a clicker's PageDown, Space, B or Esc then act on
 * the talk, and a clicked checkbox is never un-ticked by them), except inside a modal panel;
 * a typed number's Enter is the number's; an open modal panel every action but the ones that
 * close or switch it. A clicker's F5 and Shift+F5 are never the browser's (a reload), whoever
 * keeps them.
 */
import { describe, expect, test } from "bun:test";
import { CONTROL, TEXT_FIELD, controlKeepsKey, fieldKeepsKeys, pageKeepsKey, panelKeepsKey, type KeyTarget } from "../../client/src/presenter/keymap.ts";

/** A stand-in for the element a key landed on: `closest` answers from the selectors it is inside. */
function target(inside: Record<string, unknown>): KeyTarget {
  return { closest: (selectors: string) => inside[selectors] ?? null };
}
const MODAL = "[aria-modal='true']:not([hidden])";

describe("fields", () => {
  test("a text field or a splitter keeps every key; the stage does not", () => {
    expect(fieldKeepsKeys(target({ [TEXT_FIELD]: {} }))).toBe(true);
    expect(fieldKeepsKeys(target({}))).toBe(false);
  });
  test("a checkbox, a radio button or a slider is not a text field", () => {
    for (const type of ["checkbox", "radio", "range"]) expect(TEXT_FIELD).toContain(`[type='${type}']`);
    expect(TEXT_FIELD).toMatch(/^input:not\(/);
  });
});

describe("focused controls", () => {
  const button = { name: "Black" };
  test("a control the keyboard focused keeps Enter and Space, and nothing a clicker sends besides", () => {
    expect(controlKeepsKey("Space", "next", target({ [CONTROL]: button }), null)).toBe(true);
    expect(controlKeepsKey("Enter", "next", target({ [CONTROL]: button }), null)).toBe(true);
    for (const chord of ["PageDown", "PageUp", "ArrowRight", "b", ".", "Escape", "F5", "Shift+q"]) expect(controlKeepsKey(chord, "next", target({ [CONTROL]: button }), null)).toBe(false);
  });
  test("a radio group, a slider or a list reached with Tab keeps its arrows", () => {
    const radio = {};
    expect(controlKeepsKey("ArrowDown", "next", target({ [CONTROL]: radio, "input[type='radio']": radio }), null)).toBe(true);
    expect(controlKeepsKey("PageDown", "next", target({ [CONTROL]: radio, "input[type='range']": radio }), null)).toBe(true);
    expect(controlKeepsKey("ArrowDown", "next", target({ [CONTROL]: radio, select: radio }), null)).toBe(true);
    expect(controlKeepsKey("ArrowDown", "next", target({ [CONTROL]: radio }), null)).toBe(false);
  });
  test("a control the pointer pressed last keeps no key: Space, PageDown and Shift+Q are the talk's", () => {
    const checkbox = { name: "Allow viewers to save the PDF" };
    for (const chord of ["Space", "Enter", "PageDown", "ArrowRight", "Shift+q"]) expect(controlKeepsKey(chord, "next", target({ [CONTROL]: checkbox }), checkbox)).toBe(false);
  });
  test("the Live and Questions panels are not modal: a control clicked there keeps nothing", () => {
    expect(controlKeepsKey("Space", "next", target({ [CONTROL]: button, "[role='dialog']:not([hidden])": {} }), button)).toBe(false);
  });
  test("inside an open modal panel a control keeps its keys even when clicked", () => {
    expect(controlKeepsKey("Enter", "next", target({ [CONTROL]: button, [MODAL]: {} }), button)).toBe(true);
  });
  test("a typed number's Enter is the number's; the bare stage keeps nothing", () => {
    expect(controlKeepsKey("Enter", "commitEntry", target({ [CONTROL]: button }), null)).toBe(false);
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

describe("the browser's keys", () => {
  test("a clicker's F5 and Shift+F5 are the page's before any field or panel decides (never a reload)", () => {
    expect(pageKeepsKey("F5")).toBe(true);
    expect(pageKeepsKey("Shift+F5")).toBe(true);
  });
  test("every other key is left to the field, the control, the panel and the key map", () => {
    for (const chord of ["PageDown", "Space", "Escape", "b", "Ctrl+r", "F11", "Tab", null]) expect(pageKeepsKey(chord)).toBe(false);
  });
});
