/**
 * @module client/presenter/preferences
 * What the presenter keeps per browser rather than per deck: the notes text size, whether
 * the wheel and swipes change slides, and whether notes read from the pages' notes half
 * show as text or as the picture of that half. localStorage, read once at start.
 */

const KEY = "deckhand:presenter-preferences";

export interface Preferences {
  notesScale: number;
  wheelNavigation: boolean;
  /** Notes from a notes half (Beamer's second screen) shown as its picture, not its text. */
  notesPicture?: boolean;
}

export function loadPreferences(): Partial<Preferences> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Preferences>;
    const out: Partial<Preferences> = {};
    if (typeof raw.notesScale === "number" && Number.isFinite(raw.notesScale)) out.notesScale = raw.notesScale;
    if (typeof raw.wheelNavigation === "boolean") out.wheelNavigation = raw.wheelNavigation;
    if (typeof raw.notesPicture === "boolean") out.notesPicture = raw.notesPicture;
    return out;
  } catch {
    // Storage refused (a privacy setting) or damaged: the defaults hold.
    return {};
  }
}

export function savePreferences(preferences: Preferences): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(preferences));
  } catch {
    // Not remembered in this browser; the presenter still works.
  }
}
