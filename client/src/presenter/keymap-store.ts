/**
 * @module client/presenter/keymap-store
 * The user's own key map: edits of the default bindings (./keymap.ts), refused when a chord
 * would do two things in one context, kept per browser in localStorage — one map for every
 * window of this origin (the audience window reads it too) — with a reset to the defaults.
 * Only the bindings that differ from the defaults are stored, so a new default key in a
 * later version reaches users who never touched that action.
 */
import { getAction, type ActionName } from "./actions.ts";
import { DEFAULT_BINDINGS, DIGITS, findConflicts, MODE_OF, RESERVED_KEYS, type Binding } from "./keymap.ts";

/** Do not change without reading the old name too: it would drop every user's key map. */
export const KEYMAP_STORAGE_KEY = "deckhand:keymap";
const FORMAT = 1;

/** The part of Web Storage this needs (a Map stands in for it in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

type When = Binding["when"];

/** A binding's identity: its action and context ("modePen" and "modePen:digit" are two). */
export function bindingId(action: ActionName, when?: When): string {
  return when ? `${action}:${when}` : action;
}

function parseId(id: string): { action: ActionName; when?: When } | null {
  const [name, when] = id.split(":");
  if (!name || !getAction(name) || (when !== undefined && when !== "entry" && when !== "digit")) return null;
  return when ? { action: name as ActionName, when: when as When } : { action: name as ActionName };
}

/** A chord as the key map writes them ("Shift+ArrowRight", "b", "+", "Ctrl+z"). */
const CHORD = /^((Ctrl|Alt|Meta|Shift)\+)*([^+\s]|\+|[A-Z][A-Za-z0-9]+)$/;

function validKeys(keys: unknown, when: When): keys is string[] {
  if (!Array.isArray(keys) || keys.length > 12) return false;
  return keys.every((k) => typeof k === "string" && CHORD.test(k) && !RESERVED_KEYS.includes(k) && (when !== "digit" || DIGITS.includes(k)));
}

/** The bindings someone may change in the editor: every action with a key, never the digits themselves. */
export interface EditableRow {
  id: string;
  action: ActionName;
  when?: When;
  label: string;
  keys: readonly string[];
}

export function editableRows(bindings: readonly Binding[]): EditableRow[] {
  const rows: EditableRow[] = [];
  const seen = new Set<string>();
  const add = (action: ActionName, when?: When) => {
    const id = bindingId(action, when);
    if (seen.has(id)) return;
    seen.add(id);
    const keys = bindings.find((b) => b.action === action && b.when === when)?.keys ?? [];
    const label = (getAction(action)?.label ?? action) + (when === "digit" ? " — as a lone digit (pdfpc)" : when === "entry" ? " (while typing a number)" : "");
    rows.push(when ? { id, action, when, label, keys } : { id, action, label, keys });
  };
  for (const b of bindings) if (!b.keyIsArg) add(b.action, b.when);
  // Actions without a default key can be given one too.
  for (const action of ["theme", ...Object.keys(MODE_OF)] as ActionName[]) add(action);
  return rows;
}

/** Bindings with `keys` for one binding; a binding that did not exist is added. */
function withKeys(bindings: readonly Binding[], id: string, keys: readonly string[]): Binding[] {
  const parsed = parseId(id);
  if (!parsed) return bindings.slice();
  let found = false;
  const out = bindings.map((b) => {
    if (b.action !== parsed.action || b.when !== parsed.when) return b;
    found = true;
    return { ...b, keys };
  });
  if (!found) out.push(parsed.when ? { action: parsed.action, keys, when: parsed.when } : { action: parsed.action, keys });
  return out;
}

export type KeyEdit = { ok: true; bindings: Binding[] } | { ok: false; reason: string };

/**
 * Give a binding these keys, or refuse: a chord already doing something else in the same
 * context, or a "lone digit" binding on a key that is not a digit.
 */
export function setKeys(bindings: readonly Binding[], id: string, keys: readonly string[]): KeyEdit {
  const parsed = parseId(id);
  if (!parsed) return { ok: false, reason: `Unknown action “${id}”.` };
  if (keys.some((k) => RESERVED_KEYS.includes(k))) return { ok: false, reason: "Tab moves between the controls (keyboard users need it to reach them); pick another key." };
  if (!validKeys(keys, parsed.when)) return { ok: false, reason: parsed.when === "digit" ? "A tool's lone key must be a digit." : "That is not a key this map can hold." };
  const next = withKeys(bindings, id, keys);
  const conflict = findConflicts(next).find((c) => c.actions.includes(parsed.action) && keys.includes(c.chord));
  if (conflict) {
    const other = conflict.actions.find((a) => a !== parsed.action)!;
    return { ok: false, reason: `${conflict.chord} already does “${getAction(other)?.label ?? other}”. Remove it there first.` };
  }
  return { ok: true, bindings: next };
}

/** The defaults with the stored edits applied; damaged or conflicting data gives the defaults. */
export function loadKeymap(storage: KeyValueStorage | null): Binding[] {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(KEYMAP_STORAGE_KEY) ?? "null");
  } catch {
    return DEFAULT_BINDINGS.slice();
  }
  const saved = raw as { v?: unknown; bindings?: Record<string, unknown> } | null;
  if (!saved || saved.v !== FORMAT || !saved.bindings || typeof saved.bindings !== "object") return DEFAULT_BINDINGS.slice();
  let bindings = DEFAULT_BINDINGS.slice();
  for (const [id, stored] of Object.entries(saved.bindings)) {
    const parsed = parseId(id);
    // An edit kept before Tab was reserved (the overview's old key) keeps its other keys.
    const keys = Array.isArray(stored) ? stored.filter((k) => !RESERVED_KEYS.includes(k)) : stored;
    if (!parsed || !validKeys(keys, parsed.when)) continue;
    bindings = withKeys(bindings, id, keys);
  }
  // A map that conflicts (edited by hand, or a new default meeting an old edit) is not used.
  return findConflicts(bindings).length ? DEFAULT_BINDINGS.slice() : bindings;
}

/** Store the bindings that differ from the defaults (nothing at all when none do). */
export function saveKeymap(storage: KeyValueStorage | null, bindings: readonly Binding[]): void {
  const changed: Record<string, readonly string[]> = {};
  for (const b of bindings) {
    if (b.keyIsArg) continue;
    const base = DEFAULT_BINDINGS.find((d) => d.action === b.action && d.when === b.when);
    if (!base || base.keys.join("\n") !== b.keys.join("\n")) changed[bindingId(b.action, b.when)] = b.keys;
  }
  try {
    if (Object.keys(changed).length) storage?.setItem(KEYMAP_STORAGE_KEY, JSON.stringify({ v: FORMAT, bindings: changed }));
    else storage?.removeItem(KEYMAP_STORAGE_KEY);
  } catch {
    // Storage refused (a privacy setting): the map holds until the window closes.
  }
}

export function resetKeymap(storage: KeyValueStorage | null): Binding[] {
  try {
    storage?.removeItem(KEYMAP_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to remove.
  }
  return DEFAULT_BINDINGS.slice();
}

/** localStorage where the browser allows it. */
export function browserStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
