/**
 * @module client/presenter/keymap
 * The one key map. Default bindings are listed here once; the presenter and the audience
 * window resolve keys through it, the `?` panel and the README table are made from it (a
 * test keeps the README true). Bindings are data — action name → key chords — so a user's
 * own map replaces any of them (./keymap-store.ts keeps it; `findConflicts` is what the key
 * editor refuses on).
 *
 * The defaults follow the anchors a presenter already knows: PowerPoint and Keynote
 * (arrows, Space, N/P, B/. black, W/, white, number + Enter), and pdfpc (O overview,
 * Shift+Page Up/Down past overlays, +/- sizes, S start and T pause of the timer, F freeze,
 * Z zoom, C clear, D hide ink, M / Shift+M bookmark, G go to, Shift+Backspace history,
 * Ctrl+Z / Ctrl+Y undo and redo), and a clicker's F5 / Shift+F5 ("start the slide show":
 * full screen here, never a reload of the presenter). Two of pdfpc's keys collide with older
 * habits here:
 * - pdfpc's digits 1–5 pick a tool, and digits + Enter go to a slide (PowerPoint, Keynote):
 *   a digit starts a number that waits for Enter (about 2 s), and a digit that is not part of
 *   a go-to number does nothing — stray input never changes what the projector shows or what
 *   the next click does (`5` then → is the next page, never the spotlight). pdfpc's digit
 *   tools are a choice in the Keys panel, off by default (PDFPC_DIGIT_TOOLS): then a lone
 *   digit not followed by Enter becomes its tool when the number expires, at a pointer action
 *   or at another key — never earlier, so nothing flashes on the projector while a number is
 *   typed ("digit" bindings, rules in ./entry.ts).
 * - pdfpc's F freezes; deckhand's F was full screen, which moves to Shift+F (and the
 *   browser's own F11); G asked for a label in pdfpc and opened the overview here, which
 *   keeps O.
 * - pdfpc's Tab opens the overview; here Tab is never bound: it moves the keyboard focus
 *   between the controls, and a keyboard-only user must be able to reach them (WCAG 2.1.1,
 *   2.1.2). RESERVED_KEYS are refused by the key editor too.
 *
 * The policy on who keeps a key is here too (the end of this file): a field, a focused
 * control (Enter and Space) or an open modal panel, before the key reaches the talk.
 */
import { getAction, type ActionName } from "./actions.ts";
import type { Mode } from "./state.ts";

export interface Binding {
  action: ActionName;
  keys: readonly string[];
  /**
   * "entry": only while digits are being typed (number + Enter); wins over plain bindings.
   * "digit": a digit that also picks this tool when typed (pdfpc's 1–5); never conflicts
   * with the digit it rides on.
   */
  when?: "entry" | "digit";
  /** The pressed key is the action's argument (the digit typed). */
  keyIsArg?: boolean;
}

export const DIGITS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/** Keys a binding may not take: Tab and Shift+Tab move the focus (see above). */
export const RESERVED_KEYS: readonly string[] = ["Tab", "Shift+Tab"];

/**
 * What a clicker's "start the show" button sends, and a browser takes as a reload: never the
 * browser's in the presenter's window nor the audience window, whatever the binding, the focus
 * or the open panel (`pageKeepsKey`).
 */
const CLICKER_RELOAD_KEYS: ReadonlySet<string> = new Set(["F5", "Shift+F5"]);

/** The tool each mode action picks (a "digit" binding hands it to the digit action). */
export const MODE_OF: Partial<Record<ActionName, Mode>> = { modeNormal: "normal", modePointer: "pointer", modePen: "pen", modeEraser: "eraser", modeSpotlight: "spotlight" };

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
  { action: "gotoPrompt", keys: ["g"] },
  { action: "histBack", keys: ["Shift+Backspace"] },
  // pdfpc's histFwd, next10/prev10 and nextForced/prevForced. pdfpc's own keys for ±10
  // (Shift+→/←) skip the rest of a build here, so ±10 takes Ctrl with the arrows.
  { action: "histFwd", keys: ["Shift+Space"] },
  { action: "next10", keys: ["Ctrl+ArrowRight"] },
  { action: "prev10", keys: ["Ctrl+ArrowLeft"] },
  { action: "nextForced", keys: ["Shift+n"] },
  { action: "prevForced", keys: ["Shift+p"] },
  { action: "bookmarkSet", keys: ["m"] },
  { action: "bookmarkGo", keys: ["Shift+m"] },
  { action: "overview", keys: ["o"] },
  { action: "modePointer", keys: ["l"] },
  { action: "modePen", keys: ["i"] },
  { action: "modeEraser", keys: ["e"] },
  { action: "modeSpotlight", keys: ["x"] },
  { action: "clearInk", keys: ["c"] },
  { action: "toggleInk", keys: ["d"] },
  { action: "undo", keys: ["Ctrl+z", "Meta+z"] },
  { action: "redo", keys: ["Ctrl+y", "Ctrl+Shift+z", "Meta+Shift+z"] },
  { action: "zoom", keys: ["z"] },
  { action: "freeze", keys: ["f"] },
  { action: "blackout", keys: ["b", "."] },
  { action: "whiteout", keys: ["w", ","] },
  { action: "notesBigger", keys: ["+", "="] },
  { action: "notesSmaller", keys: ["-"] },
  { action: "notesDown", keys: ["Shift+ArrowDown"] },
  { action: "notesUp", keys: ["Shift+ArrowUp"] },
  { action: "timerStart", keys: ["s"] },
  { action: "timerPause", keys: ["t"] },
  { action: "timerReset", keys: ["r"] },
  { action: "slideTimes", keys: ["Shift+t"] },
  { action: "fullscreen", keys: ["Shift+f", "F5", "Shift+F5"] },
  { action: "audience", keys: ["a"] },
  { action: "swapScreens", keys: ["Shift+a"] },
  { action: "live", keys: ["Shift+l"] },
  { action: "questions", keys: ["q"] },
  { action: "showQuestion", keys: ["Shift+q"] },
  // Neither pdfpc nor PowerPoint binds Shift+R (pdfpc's Ctrl+R reloads; R resets the timer here).
  { action: "record", keys: ["Shift+r"] },
  { action: "layoutEditor", keys: ["Shift+c"] },
  { action: "exportPanel", keys: ["Shift+e"] },
  { action: "help", keys: ["?"] },
  { action: "escape", keys: ["Escape"] },
];

/**
 * pdfpc's digit tools (1 Normal, 2 Pointer, 3 Pen, 4 Eraser, 5 Spotlight), the Keys panel's
 * choice, off by default: with them a lone digit that is not followed by Enter picks its tool.
 */
export const PDFPC_DIGIT_TOOLS: readonly Binding[] = [
  { action: "modeNormal", keys: ["1"], when: "digit" },
  { action: "modePointer", keys: ["2"], when: "digit" },
  { action: "modePen", keys: ["3"], when: "digit" },
  { action: "modeEraser", keys: ["4"], when: "digit" },
  { action: "modeSpotlight", keys: ["5"], when: "digit" },
];

/** Whether a lone digit picks a tool in this map (pdfpc's digit tools are on). */
export function digitToolsOn(bindings: readonly Binding[]): boolean {
  return bindings.some((b) => b.when === "digit" && b.keys.length > 0);
}

/**
 * The map with pdfpc's digit tools turned on (each tool without a lone digit gets pdfpc's,
 * unless another tool took that digit) or off (every lone-digit binding dropped).
 */
export function withDigitTools(bindings: readonly Binding[], on: boolean): Binding[] {
  const kept = bindings.filter((b) => b.when !== "digit" || (on && b.keys.length));
  if (!on) return kept;
  const taken = new Set(kept.filter((b) => b.when === "digit").flatMap((b) => b.keys));
  return [...kept, ...PDFPC_DIGIT_TOOLS.filter((tool) => !kept.some((b) => b.action === tool.action && b.when === "digit") && !tool.keys.some((k) => taken.has(k)))];
}

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
  /** A digit that also picks a tool (pdfpc's 1–5) if the number it starts expires. */
  mode?: Mode;
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
  if (!binding.keyIsArg) return { action: binding.action };
  const tool = bindings.find((b) => b.when === "digit" && b.keys.includes(chord));
  const mode = tool ? MODE_OF[tool.action] : undefined;
  return mode ? { action: binding.action, arg: chord, mode } : { action: binding.action, arg: chord };
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

/** How a binding's keys are written: the ten digits as one "0–9", a tool's digit as "3 (alone)". */
function displayKeys(b: Binding): string[] {
  if (b.keyIsArg && b.keys.join() === DIGITS.join()) return ["0–9"];
  return b.keys.map((k) => (b.when === "digit" ? `${k} (alone)` : displayChord(k)));
}

/** What the digits row adds to its label: the rule of ./entry.ts in one sentence, with or without pdfpc's digit tools. */
const DIGIT_NOTE = "; the number waits about 2 s for Enter, and nothing shows on the audience meanwhile. A number not followed by Enter does nothing; after it Enter is Next again";
const DIGIT_TOOLS_NOTE = "; the number waits about 2 s for Enter, and nothing shows on the audience meanwhile. A digit marked “alone” below (pdfpc's digit tools, on in Keys), typed alone and not followed by Enter, then picks its tool (at once on a mouse move, a click or another key); after that Enter is Next again";

/**
 * One row per action (its plain and "digit" keys together), in the order above; the
 * number-entry bindings keep rows of their own: what `?` shows and the README lists.
 */
export function keyTable(bindings: readonly Binding[] = DEFAULT_BINDINGS): KeyRow[] {
  const rows: KeyRow[] = [];
  const byAction = new Map<string, KeyRow>();
  const digitNote = digitToolsOn(bindings) ? DIGIT_TOOLS_NOTE : DIGIT_NOTE;
  for (const b of bindings) {
    const id = b.when === "entry" ? `${b.action}|entry` : b.action;
    const existing = byAction.get(id);
    if (existing) {
      existing.keys.push(...displayKeys(b));
      continue;
    }
    const row: KeyRow = {
      action: b.action,
      keys: displayKeys(b),
      label: (getAction(b.action)?.label ?? b.action) + (b.when === "entry" ? " (while typing a number)" : b.keyIsArg ? digitNote : ""),
    };
    byAction.set(id, row);
    rows.push(row);
  }
  return rows.filter((r) => r.keys.length);
}

/** The README's key table, in markdown. */
export function keyTableMarkdown(bindings: readonly Binding[] = DEFAULT_BINDINGS): string {
  const escape = (k: string) => "`" + k.replace(/\|/g, "\\|") + "`";
  return ["| keys | action |", "|---|---|", ...keyTable(bindings).map((row) => `| ${row.keys.map(escape).join(" ")} | ${row.label} |`)].join("\n");
}

// ---- who keeps a key: fields, focused controls and open panels --------------------------------
//
// Stray input never reaches the projector: a control clicked with the mouse (a button, a
// checkbox in the Live or Questions panel) keeps none of the stage's keys — a clicker's
// PageDown, →, Space, B, ., Esc or F5 act on the talk and never un-tick the box. Only a text
// field being typed in keeps every key, and a control reached with the keyboard (Tab) keeps
// the keys that operate it. F5 and Shift+F5 are never the browser's (a reload), even there.

/** Anything with `closest` (a DOM element): the policy below asks only where the key landed. */
export interface KeyTarget {
  closest(selectors: string): unknown;
}

/** Panels that take the keyboard: only the keys that close them act on the talk meanwhile. */
const MODAL_PANELS: ReadonlySet<string> = new Set(["overview", "help", "goto", "times", "export"]);
/** What a key may still do while a modal panel is open: close it, or switch to another. */
const PANEL_CLOSERS: ReadonlySet<ActionName> = new Set(["escape", "overview", "help", "slideTimes", "exportPanel", "gotoPrompt"]);

/** Inputs that take no typing: controls, not fields. */
const NOT_TEXT = ["checkbox", "radio", "range", "button", "submit", "reset", "color", "file", "image"].map((t) => `[type='${t}']`).join(", ");
/** Where typing goes, and the splitters (they resize with the arrows): every key is theirs. */
export const TEXT_FIELD = `input:not(${NOT_TEXT}), textarea, [contenteditable='true'], [role='separator']`;
/** What takes the focus and acts on a few keys of its own. */
export const CONTROL = "button, a, summary, input, select";

/**
 * Whether the page takes a key from the browser before anyone else decides: a clicker's F5 and
 * Shift+F5, which would reload the presenter (or the projector's window) mid-talk. Asked
 * before the field and the panel (they may keep the key from the talk — in a text field or an
 * open modal panel F5 does nothing — but never give it to the browser); unbound, they do
 * nothing either.
 */
export function pageKeepsKey(chord: string | null): boolean {
  return chord !== null && CLICKER_RELOAD_KEYS.has(chord);
}

/** A field or a splitter that handles its own keys (typing, resizing): never the talk's. */
export function fieldKeepsKeys(target: KeyTarget): boolean {
  return !!target.closest(TEXT_FIELD);
}

/** Whether the open panel swallows the action; the overview grid handles its own arrows. */
export function panelKeepsKey(panel: string, action: ActionName): boolean {
  return MODAL_PANELS.has(panel) && !PANEL_CLOSERS.has(action);
}

const ACTIVATE = ["Enter", "Space"];
const ARROWS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"];
/** The keys each kind of control acts on when it has the keyboard's focus. */
const CONTROL_KEYS: readonly [selector: string, keys: readonly string[]][] = [
  ["select", [...ACTIVATE, ...ARROWS, "PageUp", "PageDown", "Home", "End"]],
  ["input[type='range']", [...ARROWS, "PageUp", "PageDown", "Home", "End"]],
  ["input[type='radio']", [...ARROWS, "Space"]],
  [CONTROL, ACTIVATE],
];

/**
 * Whether a focused control keeps a key that operates it (Enter and Space for a button or a
 * checkbox, the arrows for a radio group or a slider, …) instead of the talk: when the
 * keyboard put the focus there (Tab), or inside an open modal panel. A control the pointer
 * pressed (`pointerControl`, until Tab) keeps nothing: the clicker's keys are the stage's. A
 * typed number's Enter is the number's, even on a focused button.
 */
export function controlKeepsKey(chord: string, action: ActionName, target: KeyTarget, pointerControl: unknown): boolean {
  if (action === "commitEntry") return false;
  const control = target.closest(CONTROL);
  if (!control) return false;
  if (control === pointerControl && !target.closest("[aria-modal='true']:not([hidden])")) return false;
  const keys = CONTROL_KEYS.find(([selector]) => target.closest(selector))?.[1] ?? [];
  return keys.includes(chord);
}
