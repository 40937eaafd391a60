/**
 * @module client/presenter/preferences
 * What the presenter keeps per browser rather than per deck: the notes text size and
 * whether the wheel and swipes change slides. localStorage, read once at start.
 */

const KEY = "deckhand:presenter-preferences";

export interface Preferences {
  notesScale: number;
  wheelNavigation: boolean;
}

export function loadPreferences(): Partial<Preferences> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Preferences>;
    const out: Partial<Preferences> = {};
    if (typeof raw.notesScale === "number" && Number.isFinite(raw.notesScale)) out.notesScale = raw.notesScale;
    if (typeof raw.wheelNavigation === "boolean") out.wheelNavigation = raw.wheelNavigation;
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
