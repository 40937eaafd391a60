/**
 * The one key map: chords from key events, resolution in and out of number entry, no
 * conflicts in the defaults, every binding naming a real action, and the key table in docs/presenting/keys.md
 * made from it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ACTIONS } from "../../client/src/presenter/actions.ts";
import { chordOf, DEFAULT_BINDINGS, digitToolsOn, displayChord, findConflicts, keyTable, keyTableMarkdown, resolveKey, withDigitTools, type Binding } from "../../client/src/presenter/keymap.ts";

const key = (k: string, mods: { shiftKey?: boolean; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean } = {}) => ({ key: k, ...mods });
const plain = { entry: false };

describe("chords", () => {
  test("letters are case-blind and keep Shift; symbols carry their Shift inside", () => {
    expect(chordOf(key("B"))).toBe("b");
    expect(chordOf(key("M", { shiftKey: true }))).toBe("Shift+m");
    expect(chordOf(key("?", { shiftKey: true }))).toBe("?");
    expect(chordOf(key("+", { shiftKey: true }))).toBe("+");
    expect(chordOf(key(" "))).toBe("Space");
    expect(chordOf(key("ArrowRight", { shiftKey: true }))).toBe("Shift+ArrowRight");
    expect(chordOf(key("z", { ctrlKey: true }))).toBe("Ctrl+z");
    expect(chordOf(key("Shift", { shiftKey: true }))).toBeNull();
  });

  test("chords are written for people", () => {
    expect(displayChord("Shift+ArrowRight")).toBe("Shift+→");
    expect(displayChord("+")).toBe("+");
    expect(displayChord("Ctrl++")).toBe("Ctrl++");
    expect(displayChord("b")).toBe("B");
    expect(displayChord("PageDown")).toBe("Page Down");
  });
});

describe("resolution", () => {
  test("the PowerPoint, Keynote and pdfpc keys a presenter expects", () => {
    const cases: [ReturnType<typeof key>, string][] = [
      [key("ArrowRight"), "next"],
      [key(" "), "next"],
      [key("PageDown"), "next"],
      [key("ArrowLeft"), "prev"],
      [key("PageUp"), "prev"],
      [key("ArrowRight", { shiftKey: true }), "nextSlide"],
      [key("PageDown", { shiftKey: true }), "nextSlide"],
      [key("PageUp", { shiftKey: true }), "prevSlide"],
      [key("o"), "overview"],
      [key("g"), "gotoPrompt"],
      [key("f"), "freeze"],
      [key("F", { shiftKey: true }), "fullscreen"],
      [key("z"), "zoom"],
      [key("c"), "clearInk"],
      [key("d"), "toggleInk"],
      [key("m"), "bookmarkSet"],
      [key("M", { shiftKey: true }), "bookmarkGo"],
      [key("Backspace", { shiftKey: true }), "histBack"],
      [key("z", { ctrlKey: true }), "undo"],
      [key("y", { ctrlKey: true }), "redo"],
      [key("Z", { ctrlKey: true, shiftKey: true }), "redo"],
      [key("l"), "modePointer"],
      [key("i"), "modePen"],
      [key("e"), "modeEraser"],
      [key("x"), "modeSpotlight"],
      [key("b"), "blackout"],
      [key("."), "blackout"],
      [key("w"), "whiteout"],
      [key(","), "whiteout"],
      [key("+", { shiftKey: true }), "notesBigger"],
      [key("="), "notesBigger"],
      [key("-"), "notesSmaller"],
      [key("ArrowDown", { shiftKey: true }), "notesDown"],
      [key("s"), "timerStart"],
      [key("?", { shiftKey: true }), "help"],
    ];
    for (const [event, action] of cases) expect(resolveKey(event, plain)?.action).toBe(action as never);
  });

  test("Tab is never bound: it moves the keyboard focus", () => {
    expect(resolveKey(key("Tab"), plain)).toBeNull();
    expect(resolveKey(key("Tab", { shiftKey: true }), plain)).toBeNull();
    for (const b of DEFAULT_BINDINGS) expect(b.keys).not.toContain("Tab");
  });

  test("digits are typed; Enter and Backspace act on them only while typing", () => {
    expect(resolveKey(key("7"), plain)).toEqual({ action: "digit", arg: "7" });
    // By default a digit carries no tool: a lone `3` or `5` never arms the pen or the spotlight.
    expect(resolveKey(key("3"), plain)).toEqual({ action: "digit", arg: "3" });
    expect(resolveKey(key("5"), { entry: true })).toEqual({ action: "digit", arg: "5" });
    expect(resolveKey(key("Enter"), plain)?.action).toBe("next");
    expect(resolveKey(key("Enter"), { entry: true })?.action).toBe("commitEntry");
    expect(resolveKey(key("Backspace"), { entry: true })?.action).toBe("eraseEntry");
    expect(resolveKey(key("Backspace"), plain)?.action).toBe("prev");
  });

  test("pdfpc's digit tools, turned on in Keys, ride on the digit: it is typed and carries its tool", () => {
    const pdfpc = withDigitTools(DEFAULT_BINDINGS, true);
    expect(digitToolsOn(DEFAULT_BINDINGS)).toBe(false);
    expect(digitToolsOn(pdfpc)).toBe(true);
    expect(findConflicts(pdfpc)).toEqual([]);
    expect(resolveKey(key("3"), plain, pdfpc)).toEqual({ action: "digit", arg: "3", mode: "pen" });
    expect(resolveKey(key("1"), plain, pdfpc)).toEqual({ action: "digit", arg: "1", mode: "normal" });
    expect(resolveKey(key("5"), { entry: true }, pdfpc)).toEqual({ action: "digit", arg: "5", mode: "spotlight" });
    expect(resolveKey(key("7"), plain, pdfpc)).toEqual({ action: "digit", arg: "7" });
    // Off again: every lone-digit binding goes, the rest of the map stays.
    expect(withDigitTools(pdfpc, false)).toEqual(DEFAULT_BINDINGS.slice());
    // On keeps a tool's own lone digit, and never gives a digit a second tool.
    const moved = [...DEFAULT_BINDINGS, { action: "modePen", keys: ["2"], when: "digit" } as Binding];
    const on = withDigitTools(moved, true);
    expect(findConflicts(on)).toEqual([]);
    expect(on.filter((b) => b.when === "digit").map((b) => `${b.action}:${b.keys}`)).toEqual(["modePen:2", "modeNormal:1", "modeEraser:4", "modeSpotlight:5"]);
  });

  test("a clicker's F5 and Shift+F5 (start the show) go full screen, never reload the presenter", () => {
    expect(resolveKey(key("F5"), plain)?.action).toBe("fullscreen");
    expect(resolveKey(key("F5", { shiftKey: true }), plain)?.action).toBe("fullscreen");
  });

  test("browser shortcuts with Ctrl, Alt or Meta are left alone (but Ctrl+Z/Y are ours)", () => {
    expect(resolveKey(key("r", { ctrlKey: true }), plain)).toBeNull();
    expect(resolveKey(key("p", { ctrlKey: true }), plain)).toBeNull();
    expect(resolveKey(key("ArrowLeft", { altKey: true }), plain)).toBeNull();
  });
});

describe("the default map", () => {
  test("has no chord bound twice in one context, and names only real actions", () => {
    expect(findConflicts(DEFAULT_BINDINGS)).toEqual([]);
    for (const b of DEFAULT_BINDINGS) expect(ACTIONS.has(b.action)).toBe(true);
  });

  test("a remapped map is checked for conflicts", () => {
    const mine: Binding[] = [...DEFAULT_BINDINGS, { action: "fullscreen", keys: ["b"] }];
    expect(findConflicts(mine)).toEqual([{ chord: "b", actions: ["blackout", "fullscreen"] }]);
  });

  test("the table lists every action once (a tool's letter and its lone digit together) with its label", () => {
    const rows = keyTable();
    expect(rows.length).toBe(new Set(DEFAULT_BINDINGS.map((b) => (b.when === "entry" ? b.action + "|entry" : b.action))).size);
    expect(rows.find((r) => r.action === "digit")?.keys).toEqual(["0–9"]);
    expect(rows.find((r) => r.action === "digit")?.label).toContain("A number not followed by Enter does nothing");
    expect(rows.find((r) => r.action === "nextSlide")?.keys).toEqual(["Shift+→", "Shift+Page Down"]);
    expect(rows.find((r) => r.action === "modePen")?.keys).toEqual(["I"]);
    expect(rows.find((r) => r.action === "modeNormal")).toBeUndefined();
    const pdfpc = keyTable(withDigitTools(DEFAULT_BINDINGS, true));
    expect(pdfpc.find((r) => r.action === "modePen")?.keys).toEqual(["I", "3 (alone)"]);
    expect(pdfpc.find((r) => r.action === "modeNormal")?.keys).toEqual(["1 (alone)"]);
    expect(pdfpc.find((r) => r.action === "digit")?.label).toContain("pdfpc's digit tools");
    expect(rows.find((r) => r.action === "undo")?.keys).toEqual(["Ctrl+Z", "Meta+Z"]);
  });

  test("docs/presenting/keys.md carries the key table exactly as the key map makes it", () => {
    const readme = readFileSync(join(import.meta.dir, "../../docs/presenting/keys.md"), "utf8");
    const table = keyTableMarkdown();
    // Not toContain: on failure that prints the whole page; this prints the table to paste.
    if (!readme.includes(table)) throw new Error(`docs/presenting/keys.md's key table is out of date. It must read:\n${table}`);
  });
});
