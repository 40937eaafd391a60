/**
 * What the presenter keeps per browser: the user's key map —
 * edits refused on a conflict, stored as differences from the defaults, damaged data giving
 * the defaults, a reset — and the rearranged layout with its presets, drags, limits, theme
 * and reset. A Map stands in for localStorage.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_BINDINGS, digitToolsOn, resolveChord, withDigitTools, type Binding } from "../../client/src/presenter/keymap.ts";
import { editableRows, KEYMAP_STORAGE_KEY, loadKeymap, resetKeymap, saveKeymap, setKeys, type KeyValueStorage } from "../../client/src/presenter/keymap-store.ts";
import { applyPreset, DEFAULT_LAYOUT, LAYOUT_STORAGE_KEY, loadLayout, movePane, resetLayout, saveLayout, setCurrentWidth, splitPanes } from "../../client/src/presenter/layout.ts";

function memory(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

const plain = { entry: false };

function edit(bindings: readonly Binding[], id: string, keys: string[]): Binding[] {
  const result = setKeys(bindings, id, keys);
  if (!result.ok) throw new Error(result.reason);
  return result.bindings;
}

describe("the key map editor and its storage", () => {
  test("a remapped key works, the old one no longer does, and the map survives a reload", () => {
    const storage = memory();
    const mine = edit(loadKeymap(storage), "blackout", ["k", "."]);
    expect(resolveChord("k", plain, mine)?.action).toBe("blackout");
    expect(resolveChord("b", plain, mine)).toBeNull();
    saveKeymap(storage, mine);
    // Only the difference is stored.
    expect(JSON.parse(storage.map.get(KEYMAP_STORAGE_KEY)!)).toEqual({ v: 1, bindings: { blackout: ["k", "."] } });
    const reloaded = loadKeymap(storage);
    expect(resolveChord("k", plain, reloaded)?.action).toBe("blackout");
    expect(resolveChord("b", plain, reloaded)).toBeNull();
  });

  test("a chord that already does something else in the same context is refused, naming it", () => {
    const result = setKeys(DEFAULT_BINDINGS, "blackout", ["f"]);
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("Freeze") });
    // Enter while typing a number and Enter as "next" live in different contexts.
    expect(setKeys(DEFAULT_BINDINGS, "commitEntry:entry", ["Enter", "Space"]).ok).toBe(true);
    // A tool's lone key must be a digit, and a digit cannot be given a plain action.
    expect(setKeys(DEFAULT_BINDINGS, "modePen:digit", ["p"]).ok).toBe(false);
    expect(setKeys(DEFAULT_BINDINGS, "freeze", ["7"]).ok).toBe(false);
    expect(setKeys(DEFAULT_BINDINGS, "nope", ["q"]).ok).toBe(false);
  });

  test("Tab cannot be bound (it moves the focus); an old stored overview edit with Tab keeps its other keys", () => {
    expect(setKeys(DEFAULT_BINDINGS, "overview", ["Tab", "o"])).toEqual({ ok: false, reason: expect.stringContaining("Tab moves between the controls") });
    expect(setKeys(DEFAULT_BINDINGS, "next", ["Shift+Tab"]).ok).toBe(false);
    const storage = memory();
    storage.setItem(KEYMAP_STORAGE_KEY, JSON.stringify({ v: 1, bindings: { overview: ["Tab", "o", "v"] } }));
    const loaded = loadKeymap(storage);
    expect(resolveChord("Tab", plain, loaded)).toBeNull();
    expect(resolveChord("v", plain, loaded)?.action).toBe("overview");
  });

  test("an action without a default key can be given one; a tool's lone digit can move", () => {
    let mine = edit(DEFAULT_BINDINGS, "theme", ["Shift+d"]);
    expect(resolveChord("Shift+d", plain, mine)?.action).toBe("theme");
    mine = edit(mine, "modePen:digit", ["9"]);
    mine = edit(mine, "modeSpotlight:digit", []);
    expect(resolveChord("9", plain, mine)).toEqual({ action: "digit", arg: "9", mode: "pen" });
    expect(resolveChord("3", plain, mine)).toEqual({ action: "digit", arg: "3" });
    expect(resolveChord("5", plain, mine)).toEqual({ action: "digit", arg: "5" });
  });

  test("the editor lists every action with a key, the tools' digits, and actions without keys; never the digits themselves", () => {
    const rows = editableRows(DEFAULT_BINDINGS);
    const ids = rows.map((r) => r.id);
    expect(ids).toContain("blackout");
    // The tools' lone digits are rows only once pdfpc's digit tools are on.
    expect(ids).not.toContain("modePen:digit");
    expect(editableRows(withDigitTools(DEFAULT_BINDINGS, true)).map((r) => r.id)).toContain("modePen:digit");
    expect(ids).toContain("commitEntry:entry");
    expect(ids).toContain("theme");
    expect(ids).toContain("modeNormal");
    expect(ids).not.toContain("digit");
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("pdfpc's digit tools: off by default, kept on across a reload once turned on, and off again stores nothing", () => {
    const storage = memory();
    expect(digitToolsOn(loadKeymap(storage))).toBe(false);
    saveKeymap(storage, withDigitTools(loadKeymap(storage), true));
    const loaded = loadKeymap(storage);
    expect(digitToolsOn(loaded)).toBe(true);
    expect(resolveChord("5", plain, loaded)).toEqual({ action: "digit", arg: "5", mode: "spotlight" });
    saveKeymap(storage, withDigitTools(loaded, false));
    expect(storage.map.size).toBe(0);
    expect(resolveChord("5", plain, loadKeymap(storage))).toEqual({ action: "digit", arg: "5" });
  });

  test("damaged or conflicting stored maps give the defaults; reset removes the stored map", () => {
    const storage = memory();
    storage.setItem(KEYMAP_STORAGE_KEY, "{not json");
    expect(loadKeymap(storage)).toEqual(DEFAULT_BINDINGS.slice());
    storage.setItem(KEYMAP_STORAGE_KEY, JSON.stringify({ v: 1, bindings: { blackout: ["f"] } }));
    expect(resolveChord("f", plain, loadKeymap(storage))?.action).toBe("freeze");
    storage.setItem(KEYMAP_STORAGE_KEY, JSON.stringify({ v: 1, bindings: { blackout: ["k"], bogus: ["q"], whiteout: [42] } }));
    expect(resolveChord("k", plain, loadKeymap(storage))?.action).toBe("blackout");
    expect(resolveChord("w", plain, loadKeymap(storage))?.action).toBe("whiteout");
    expect(resetKeymap(storage)).toEqual(DEFAULT_BINDINGS.slice());
    expect(storage.map.has(KEYMAP_STORAGE_KEY)).toBe(false);
    // Saving the defaults stores nothing.
    saveKeymap(storage, DEFAULT_BINDINGS);
    expect(storage.map.size).toBe(0);
  });
});

describe("the presenter layout and its storage", () => {
  test("presets, drags and moves change it within limits; it survives a reload; reset gives the default", () => {
    const storage = memory();
    let layout = applyPreset({ ...loadLayout(storage), theme: "light" }, "notes");
    expect(layout).toMatchObject({ side: "right", currentWidth: 55, theme: "light" });
    expect(layout.panes.map((p) => p.id)).toEqual(["notes", "timer", "next"]);
    layout = setCurrentWidth(layout, 99);
    expect(layout.currentWidth).toBe(85);
    layout = movePane(layout, "next", -1);
    expect(layout.panes.map((p) => p.id)).toEqual(["notes", "next", "timer"]);
    expect(movePane(layout, "notes", -1)).toBe(layout);
    layout = splitPanes(layout, "notes", "next", 0.25);
    expect(layout.panes.find((p) => p.id === "notes")!.size).toBe(2.3);
    expect(layout.panes.find((p) => p.id === "next")!.size).toBe(6.8);
    saveLayout(storage, layout);
    expect(loadLayout(storage)).toEqual(layout);
    expect(resetLayout(storage)).toEqual(DEFAULT_LAYOUT);
    expect(loadLayout(storage)).toEqual(DEFAULT_LAYOUT);
  });

  test("a damaged or foreign record gives the default layout; out-of-range sizes are clamped", () => {
    const storage = memory();
    storage.setItem(LAYOUT_STORAGE_KEY, "nope");
    expect(loadLayout(storage)).toEqual(DEFAULT_LAYOUT);
    storage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ v: 1, side: "left", currentWidth: 10, panes: [{ id: "next", size: 99 }, { id: "timer", size: 1 }], theme: "light" }));
    expect(loadLayout(storage)).toEqual(DEFAULT_LAYOUT);
    storage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ v: 1, side: "left", currentWidth: 10, panes: [{ id: "next", size: 99 }, { id: "timer", size: 1 }, { id: "notes", size: -3 }], theme: "neon" }));
    expect(loadLayout(storage)).toEqual({ side: "left", currentWidth: 35, panes: [{ id: "next", size: 12 }, { id: "timer", size: 1 }, { id: "notes", size: 1 }], theme: "dark" });
  });
});
