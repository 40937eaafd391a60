/**
 * @module client/presenter/entry
 * Number + Enter (PowerPoint, Keynote) next to pdfpc's lone digits 1–5 (its tools), made safe
 * for the room. A typed number is *pending*: it shows only in the presenter's footer, and
 * nothing of it reaches the audience — a lone digit's tool is not picked yet. Enter while it
 * is pending goes to the slide with that label (`4` `5` `Enter` is slide 45; `3` `Enter` is
 * slide 3). The number expires after ENTRY_TIMEOUT_MS, at once on any pointer action, and on
 * any other key: a lone digit then becomes its tool (`3`, a pause or a stroke: the pen), a
 * longer number is dropped, and `Enter` is Next again (`1`, a pause, `Enter`: the next page,
 * never slide 1). Pure: the page schedules `expireEntry` and reports pointer actions.
 */
import type { Mode, PresenterState } from "./state.ts";

/**
 * How long a typed number waits for the next digit or Enter: PowerPoint users type "45 ⏎" in
 * well under a second, and a speaker who pressed `1` to put the pen down and later presses
 * Enter to move on has long passed it: about 2 s, long enough to type a two-digit number and
 * short enough that a stray digit is forgotten.
 */
export const ENTRY_TIMEOUT_MS = 2000;

/** Digits kept for "number + Enter": no deck has a label longer than this. */
const MAX_ENTRY = 8;

/** Whether a typed number is waiting for Enter at `now` (typed, and not yet expired). */
export function entryPending(state: PresenterState, now: number): boolean {
  return !!state.entry && (state.entryAt === null || now - state.entryAt < ENTRY_TIMEOUT_MS);
}

/** Ms until the pending number expires (for the page's timer), or null when none is pending. */
export function entryExpiresIn(state: PresenterState, now: number): number | null {
  if (!state.entry || state.entryAt === null) return null;
  return Math.max(0, state.entryAt + ENTRY_TIMEOUT_MS - now);
}

/** The number as nothing: no digits, no pending tool. */
export function clearEntry(state: PresenterState): PresenterState {
  if (!state.entry && state.entryTool === null && state.entryAt === null) return state;
  return { ...state, entry: "", entryTool: null, entryAt: null };
}

/**
 * The number is not a slide number after all: a lone digit's tool is picked now (the only
 * moment it can reach the audience), any other number is dropped. Unchanged (the same
 * object) when nothing was typed, so the many pointer samples cost nothing.
 */
export function settleEntry(state: PresenterState): PresenterState {
  if (!state.entry) return state.entryTool === null && state.entryAt === null ? state : clearEntry(state);
  const tool = state.entry.length === 1 ? state.entryTool : null;
  const cleared = clearEntry(state);
  if (!tool || tool === state.mode) return cleared;
  return { ...cleared, mode: tool, overlays: { ...state.overlays, pointer: null, live: null } };
}

/** Settle the number if it has expired by `now`; otherwise leave it waiting. */
export function expireEntry(state: PresenterState, now: number): PresenterState {
  return state.entry && !entryPending(state, now) ? settleEntry(state) : state;
}

/**
 * A typed digit joins the pending number. The first digit may carry the tool the key map
 * gives it (pdfpc's 1–5), kept pending; a second digit makes it a number with no tool. A digit
 * after the last one expired starts a new number (the old one settles first).
 */
export function typeDigit(state: PresenterState, now: number, arg: unknown): PresenterState {
  const { digit, mode } = typeof arg === "string" ? { digit: arg, mode: undefined } : ((arg ?? {}) as { digit?: unknown; mode?: Mode });
  if (typeof digit !== "string" || !/^[0-9]$/.test(digit)) return state;
  const base = expireEntry(state, now);
  if (base.entry.length >= MAX_ENTRY) return base;
  return { ...base, entry: base.entry + digit, entryTool: base.entry ? null : (mode ?? null), entryAt: now, notice: null };
}

/** Backspace while typing: one digit less; the number has no tool any more, and waits anew. */
export function eraseDigit(state: PresenterState, now: number): PresenterState {
  const entry = state.entry.slice(0, -1);
  return entry ? { ...state, entry, entryTool: null, entryAt: now } : clearEntry(state);
}
