/**
 * @module client/presenter/layout
 * The presenter's own arrangement, kept per browser: which side the notes column is on, how
 * wide the current slide is, the order and heights of the next slide, timer and notes, and
 * the theme. A few presets, any size between by dragging, and a reset. Plain data, validated
 * on load (a damaged record gives the default), turned into CSS custom properties by
 * ./views/layout-view.ts.
 */
import type { KeyValueStorage } from "./keymap-store.ts";

/** Do not change without reading the old name too: it would drop every user's layout. */
export const LAYOUT_STORAGE_KEY = "deckhand:presenter-layout";
const FORMAT = 1;

export type PaneId = "next" | "timer" | "notes";
export type Theme = "dark" | "light";

export interface PresenterLayout {
  /** Where the column of next slide, timer and notes is. */
  side: "right" | "left";
  /** The current slide's share of the stage's width, in percent. */
  currentWidth: number;
  /** The column's panes, top to bottom, each with its share of the height (grid fr). */
  panes: { id: PaneId; size: number }[];
  theme: Theme;
}

/** Limits that keep every pane usable: a slide narrower than 35% is unreadable to the speaker. */
export const CURRENT_WIDTH = { min: 35, max: 85 } as const;
export const PANE_SIZE = { min: 1, max: 12 } as const;

export const PRESETS: Readonly<Record<string, { label: string; layout: PresenterLayout }>> = {
  classic: { label: "Classic", layout: { side: "right", currentWidth: 68, panes: [{ id: "next", size: 3 }, { id: "timer", size: 1 }, { id: "notes", size: 5 }], theme: "dark" } },
  notes: { label: "Notes first", layout: { side: "right", currentWidth: 55, panes: [{ id: "notes", size: 7 }, { id: "timer", size: 1 }, { id: "next", size: 2 }], theme: "dark" } },
  next: { label: "Big next slide", layout: { side: "right", currentWidth: 55, panes: [{ id: "next", size: 6 }, { id: "timer", size: 1 }, { id: "notes", size: 3 }], theme: "dark" } },
  left: { label: "Column on the left", layout: { side: "left", currentWidth: 68, panes: [{ id: "next", size: 3 }, { id: "timer", size: 1 }, { id: "notes", size: 5 }], theme: "dark" } },
};

export const DEFAULT_LAYOUT: PresenterLayout = PRESETS.classic!.layout;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round1 = (v: number) => Math.round(v * 10) / 10;

/** A preset's arrangement, keeping the theme the user chose. */
export function applyPreset(layout: PresenterLayout, name: string): PresenterLayout {
  const preset = PRESETS[name];
  return preset ? { ...preset.layout, panes: preset.layout.panes.map((p) => ({ ...p })), theme: layout.theme } : layout;
}

export function setCurrentWidth(layout: PresenterLayout, percent: number): PresenterLayout {
  return Number.isFinite(percent) ? { ...layout, currentWidth: round1(clamp(percent, CURRENT_WIDTH.min, CURRENT_WIDTH.max)) } : layout;
}

export function setPaneSize(layout: PresenterLayout, id: PaneId, size: number): PresenterLayout {
  if (!Number.isFinite(size)) return layout;
  return { ...layout, panes: layout.panes.map((p) => (p.id === id ? { ...p, size: round1(clamp(size, PANE_SIZE.min, PANE_SIZE.max)) } : p)) };
}

/** Move a pane up (-1) or down (+1) in the column. */
export function movePane(layout: PresenterLayout, id: PaneId, by: -1 | 1): PresenterLayout {
  const panes = layout.panes.slice();
  const at = panes.findIndex((p) => p.id === id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= panes.length) return layout;
  [panes[at], panes[to]] = [panes[to]!, panes[at]!];
  return { ...layout, panes };
}

/**
 * Resize two neighbouring panes by dragging the splitter between them: `fraction` is where
 * the splitter now sits within their combined height (0..1); their total stays the same.
 */
export function splitPanes(layout: PresenterLayout, upper: PaneId, lower: PaneId, fraction: number): PresenterLayout {
  const a = layout.panes.find((p) => p.id === upper);
  const b = layout.panes.find((p) => p.id === lower);
  if (!a || !b || !Number.isFinite(fraction)) return layout;
  const total = a.size + b.size;
  const top = clamp(total * fraction, PANE_SIZE.min, Math.min(PANE_SIZE.max, total - PANE_SIZE.min));
  return setPaneSize(setPaneSize(layout, upper, top), lower, total - top);
}

export function parseLayout(value: unknown): PresenterLayout {
  const v = value as Partial<PresenterLayout> & { v?: unknown };
  if (!v || typeof v !== "object" || v.v !== FORMAT) return DEFAULT_LAYOUT;
  const ids = Array.isArray(v.panes) ? v.panes.map((p) => p?.id) : [];
  const complete = ids.length === 3 && (["next", "timer", "notes"] as const).every((id) => ids.includes(id));
  if (!complete || (v.side !== "left" && v.side !== "right") || typeof v.currentWidth !== "number") return DEFAULT_LAYOUT;
  let layout: PresenterLayout = { side: v.side, currentWidth: DEFAULT_LAYOUT.currentWidth, panes: v.panes!.map((p) => ({ id: p.id, size: 1 })), theme: v.theme === "light" ? "light" : "dark" };
  layout = setCurrentWidth(layout, v.currentWidth);
  for (const p of v.panes!) layout = setPaneSize(layout, p.id, Number(p.size));
  return layout;
}

export function loadLayout(storage: KeyValueStorage | null): PresenterLayout {
  try {
    return parseLayout(JSON.parse(storage?.getItem(LAYOUT_STORAGE_KEY) ?? "null"));
  } catch {
    return DEFAULT_LAYOUT;
  }
}

export function saveLayout(storage: KeyValueStorage | null, layout: PresenterLayout): void {
  try {
    storage?.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ v: FORMAT, ...layout }));
  } catch {
    // Not remembered in this browser; the layout holds until the window closes.
  }
}

export function resetLayout(storage: KeyValueStorage | null): PresenterLayout {
  try {
    storage?.removeItem(LAYOUT_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
  return DEFAULT_LAYOUT;
}
