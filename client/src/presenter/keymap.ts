/**
 * @module client/presenter/keymap
 * The one key map. Default bindings are listed here once; the presenter and the audience
 * window resolve keys through it, the `?` panel and the README table are made from it (a
 * test keeps the README true). Bindings are data — action name → key chords — so a user's
 * own map can later replace any of them (`findConflicts` is what a key editor refuses on).
 *
 * The defaults follow the anchors a presenter already knows: PowerPoint and Keynote
 * (arrows, Space, N/P, B/. black, W/, white, number + Enter), and pdfpc (Tab overview,
 * Shift+Page Up/Down past overlays, +/- notes size, S start and T pause of the timer).
 */
import { getAction, type ActionName } from "./actions.ts";

export interface Binding {
  action: ActionName;
  keys: readonly string[];
  /** Only while digits are being typed (number + Enter); wins over the plain bindings. */
  when?: "entry";
  /** The pressed key is the action's argument (the digit typed). */
  keyIsArg?: boolean;
}

const DIGITS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

export const DEFAULT_BINDINGS: readonly Binding[] = [
  { action: "next", keys: ["ArrowRight", "ArrowDown", "PageDown", "Space", "Enter", "n"] },
  { action: "prev", keys: ["ArrowLeft", "ArrowUp", "PageUp", "Backspace", "p"] },
  { action: "nextSlide", keys: ["Shift+ArrowRight", "Shift+PageDown"] },
  { action: "prevSlide", keys: ["Shift+ArrowLeft", "Shift+PageUp"] },
  { action: "first", keys: ["Home"] },
  { action: "last", keys: ["End"] },
  { action: "digit", keys: DIGITS, keyIsArg: true },
  { action: "commitEntry", keys: ["Enter"], when: "entry" },
  { action: "eraseEntry", keys: ["Backspace"], when: "entry" },
  { action: "overview", keys: ["Tab", "g", "o"] },
  { action: "blackout", keys: ["b", "."] },
  { action: "whiteout", keys: ["w", ","] },
  { action: "notesBigger", keys: ["+", "="] },
  { action: "notesSmaller", keys: ["-"] },
  { action: "notesDown", keys: ["Shift+ArrowDown"] },
  { action: "notesUp", keys: ["Shift+ArrowUp"] },
  { action: "timerStart", keys: ["s"] },
  { action: "timerPause", keys: ["t"] },
  { action: "timerReset", keys: ["r"] },
  { action: "fullscreen", keys: ["f"] },
  { action: "audience", keys: ["a"] },
  { action: "help", keys: ["?"] },
  { action: "escape", keys: ["Escape"] },
];

export interface KeyEventLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

const NAMED: Record<string, string> = { " ": "Space", Spacebar: "Space", Esc: "Escape", Left: "ArrowLeft", Right: "ArrowRight", Up: "ArrowUp", Down: "ArrowDown" };

/**
 * The chord a key event stands for: modifiers then the key, e.g. "Shift+ArrowRight", "b",
 * "?". Letters are lower-cased (Caps Lock does not change a binding) and Shift is kept for
 * them; for other printable characters Shift is part of the character ("?" is Shift+/ on
 * one layout and not on another), so it is dropped. Null for a bare modifier key.
 */
export function chordOf(event: KeyEventLike): string | null {
  const raw = NAMED[event.key] ?? event.key;
  if (!raw || ["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock", "Dead", "Unidentified"].includes(raw)) return null;
  const printable = raw.length === 1;
  const letter = printable && raw.toLowerCase() !== raw.toUpperCase();
  const key = letter ? raw.toLowerCase() : raw;
  const mods: string[] = [];
  if (event.ctrlKey) mods.push("Ctrl");
  if (event.altKey) mods.push("Alt");
  if (event.metaKey) mods.push("Meta");
  if (event.shiftKey && (!printable || letter)) mods.push("Shift");
  return [...mods, key].join("+");
}

export interface Resolved {
  action: ActionName;
  arg?: string;
}

export interface KeyContext {
  /** Digits are being typed. */
  entry: boolean;
}

/** The action a chord triggers in this context, or null. */
export function resolveChord(chord: string, context: KeyContext, bindings: readonly Binding[] = DEFAULT_BINDINGS): Resolved | null {
  if (context.entry) {
    const entry = bindings.find((b) => b.when === "entry" && b.keys.includes(chord));
    if (entry) return { action: entry.action };
  }
  const binding = bindings.find((b) => !b.when && b.keys.includes(chord));
  if (!binding) return null;
  return binding.keyIsArg ? { action: binding.action, arg: chord } : { action: binding.action };
}

export function resolveKey(event: KeyEventLike, context: KeyContext, bindings: readonly Binding[] = DEFAULT_BINDINGS): Resolved | null {
  const chord = chordOf(event);
  return chord ? resolveChord(chord, context, bindings) : null;
}

/** Chords bound to more than one action in the same context: what a key editor must refuse. */
export function findConflicts(bindings: readonly Binding[]): { chord: string; actions: ActionName[] }[] {
  const seen = new Map<string, ActionName[]>();
  for (const b of bindings) {
    for (const key of b.keys) {
      const id = `${b.when ?? ""}|${key}`;
      const actions = seen.get(id) ?? [];
      if (!actions.includes(b.action)) actions.push(b.action);
      seen.set(id, actions);
    }
  }
  return [...seen].filter(([, actions]) => actions.length > 1).map(([id, actions]) => ({ chord: id.split("|")[1]!, actions }));
}

const DISPLAY: Record<string, string> = {
  ArrowRight: "→",
  ArrowLeft: "←",
  ArrowUp: "↑",
  ArrowDown: "↓",
  PageDown: "Page Down",
  PageUp: "Page Up",
  Escape: "Esc",
};

/** Split "Ctrl+Shift+x" into modifiers and key; the key itself may be "+". */
function splitChord(chord: string): { mods: string[]; key: string } {
  if (chord === "+" || chord.endsWith("++")) return { mods: chord.slice(0, -2).split("+").filter(Boolean), key: "+" };
  const parts = chord.split("+");
  return { mods: parts.slice(0, -1), key: parts[parts.length - 1]! };
}

/** How a chord is written for people: "Shift+→", "Page Down", "B". */
export function displayChord(chord: string): string {
  const { mods, key } = splitChord(chord);
  return [...mods, DISPLAY[key] ?? (key.length === 1 ? key.toUpperCase() : key)].join("+");
}

export interface KeyRow {
  keys: string[];
  label: string;
  action: ActionName;
}

/** One row per binding, in the order above: what `?` shows and the README lists. */
export function keyTable(bindings: readonly Binding[] = DEFAULT_BINDINGS): KeyRow[] {
  return bindings.map((b) => ({
    action: b.action,
    keys: b.keyIsArg && b.keys.join() === DIGITS.join() ? ["0–9"] : b.keys.map(displayChord),
    label: (getAction(b.action)?.label ?? b.action) + (b.when === "entry" ? " (while typing a number)" : ""),
  }));
}

/** The README's key table, in markdown. */
export function keyTableMarkdown(bindings: readonly Binding[] = DEFAULT_BINDINGS): string {
  const escape = (k: string) => "`" + k.replace(/\|/g, "\\|") + "`";
  return ["| keys | action |", "|---|---|", ...keyTable(bindings).map((row) => `| ${row.keys.map(escape).join(" ")} | ${row.label} |`)].join("\n");
}
