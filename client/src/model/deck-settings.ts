/**
 * @module client/model/deck-settings
 * The presenter's own settings for one deck, kept with it in IndexedDB: the notes layout
 * (pdfpc's `-n`: which half of each page holds the notes, or none) and the timer (duration,
 * end time, last minutes). Each overrides what the deck says — its XMP (pdfpc.sty), an
 * attached or beside-the-PDF .pdfpc, the page geometry. Pure data: what a stored record or a
 * form field holds, checked; what applies, resolved. Stored values come from an older or
 * damaged record as easily as from this code, so each is read defensively.
 */
import { isNotesPosition, layoutOf, type NotesLayout, type NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { TimerSettings } from "../../../src/deck/sidecar/types.ts";

/** Longest talk the timer takes, in minutes (a day: beyond it a typo, not a talk). */
export const MAX_DURATION_MINUTES = 24 * 60;

/** The stored override, or null (as the deck says) when absent or not a position. */
export function parseNotesPosition(value: unknown): NotesPosition | null {
  return isNotesPosition(value) ? value : null;
}

/** The layout in force: the speaker's override, else the deck's own. */
export function effectiveLayout(detected: NotesLayout, override: NotesPosition | null): NotesLayout {
  return override ? layoutOf(override, "override") : detected;
}

/** The position screens split pages at ("none": whole pages). */
export function notesPositionOf(layout: NotesLayout): NotesPosition {
  return layout.kind === "beamer-second-screen" ? layout.position : "none";
}

const HH_MM = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function minutes(value: unknown, max: number): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value <= max ? value : undefined;
}

/** A stored timer override, checked field by field (a bad field is dropped, not the rest); undefined when nothing is left. */
export function parseTimerSettings(value: unknown): TimerSettings | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const out: TimerSettings = {};
  const duration = minutes(v.durationMinutes, MAX_DURATION_MINUTES);
  if (duration !== undefined) out.durationMinutes = duration;
  if (typeof v.endTime === "string" && HH_MM.test(v.endTime)) out.endTime = v.endTime.padStart(5, "0");
  const last = typeof v.lastMinutes === "number" && Number.isFinite(v.lastMinutes) && v.lastMinutes >= 0 && v.lastMinutes <= MAX_DURATION_MINUTES ? v.lastMinutes : undefined;
  if (last !== undefined) out.lastMinutes = last;
  return Object.keys(out).length ? out : undefined;
}

/**
 * What the timer uses: the speaker's settings over the deck's. A duration or an end time set
 * by the speaker replaces both of the deck's (the countdown takes a duration before an end
 * time, so a deck's duration would otherwise hide the speaker's end time); last minutes
 * override on their own; the deck's start time and end slide stay.
 */
export function effectiveTimer(deck: TimerSettings, own: TimerSettings | undefined): TimerSettings {
  if (!own) return deck;
  // The speaker's form sets no start time and no end slide: the deck's stay in force.
  const out: TimerSettings = {};
  if (deck.startTime !== undefined) out.startTime = deck.startTime;
  if (deck.endSlide !== undefined) out.endSlide = deck.endSlide;
  if (own.durationMinutes !== undefined || own.endTime !== undefined) {
    if (own.durationMinutes !== undefined) out.durationMinutes = own.durationMinutes;
    if (own.endTime !== undefined) out.endTime = own.endTime;
  } else {
    if (deck.durationMinutes !== undefined) out.durationMinutes = deck.durationMinutes;
    if (deck.endTime !== undefined) out.endTime = deck.endTime;
  }
  const last = own.lastMinutes ?? deck.lastMinutes;
  if (last !== undefined) out.lastMinutes = last;
  // Where each setting kept from the deck came from (the speaker's own have no source).
  const sources = Object.fromEntries(Object.entries(deck.sources ?? {}).filter(([field]) => out[field as keyof TimerSettings] === deck[field as keyof TimerSettings] && own[field as keyof TimerSettings] === undefined));
  if (Object.keys(sources).length) out.sources = sources;
  return out;
}

/** The timer form's fields as typed ("" = not set). */
export interface TimerInputs {
  duration: string;
  endTime: string;
  lastMinutes: string;
}

export type TimerFormResult = { ok: true; settings: TimerSettings | undefined } | { ok: false; field: keyof TimerInputs; message: string };

/** The timer form read: settings to store (undefined = back to the deck's), or what to fix. */
export function readTimerInputs(inputs: TimerInputs): TimerFormResult {
  const out: TimerSettings = {};
  const duration = inputs.duration.trim();
  if (duration) {
    const n = Number(duration.replace(",", "."));
    if (!(n > 0 && n <= MAX_DURATION_MINUTES)) return { ok: false, field: "duration", message: `The duration is in minutes, from 1 to ${MAX_DURATION_MINUTES}; clear it to use the deck's.` };
    out.durationMinutes = n;
  }
  const end = inputs.endTime.trim();
  if (end) {
    if (!HH_MM.test(end)) return { ok: false, field: "endTime", message: "The end time is a time of day as HH:MM (24-hour), e.g. 14:30; clear it to use the deck's." };
    out.endTime = end.padStart(5, "0");
  }
  const last = inputs.lastMinutes.trim();
  if (last) {
    const n = Number(last.replace(",", "."));
    if (!(n >= 0 && n <= MAX_DURATION_MINUTES)) return { ok: false, field: "lastMinutes", message: "Last minutes are how many minutes before the end the countdown warns (0 or more); clear it to use the deck's." };
    out.lastMinutes = n;
  }
  return { ok: true, settings: Object.keys(out).length ? out : undefined };
}

/** The form's fields for stored settings (what the speaker set, nothing else). */
export function timerInputsOf(own: TimerSettings | undefined): TimerInputs {
  return { duration: own?.durationMinutes !== undefined ? String(own.durationMinutes) : "", endTime: own?.endTime ?? "", lastMinutes: own?.lastMinutes !== undefined ? String(own.lastMinutes) : "" };
}
