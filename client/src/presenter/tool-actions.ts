/**
 * @module client/presenter/tool-actions
 * The stage tools as named actions (pdfpc's modes and Presio's annotations): Normal,
 * Pointer, Pen, Eraser and Spotlight; the pen's colour and width; strokes drawn, erased,
 * cleared, hidden, undone and redone per page; zoom into a region; freeze the audience's
 * picture. Pure like every action: pointer samples come in as arguments in PDF points.
 */
import type { ActionContext, PresenterAction } from "./action-types.ts";
import { appendPoints, fitZoom, samplePoint, strokeId, touches, zoomAround, type Point, type Rect, type Stroke } from "./ink.ts";
import { audienceView } from "./audience.ts";
import { PEN_WIDTHS, type InkHistory, type Mode, type PresenterState, type ToolSizes } from "./state.ts";

/** Undo steps kept per page. */
const UNDO_LIMIT = 100;
/** A click (not a drag) while choosing a zoom region zooms this much around it. */
const CLICK_ZOOM = 2;
/** Tool size limits in PDF points, and the factor one +/- press changes them by. */
const SIZE_LIMITS: Record<keyof ToolSizes, [number, number]> = { pen: [1, 24], eraser: [4, 60], pointer: [3, 24], spotlight: [30, 220] };
const SIZE_STEP = 1.25;
/** A 16:9 slide in points, when the page's size is not known (tests, or before mupdf). */
const FALLBACK_SIZE = { w: 720, h: 405 };

const EMPTY: readonly Stroke[] = [];
let sequence = 0;

function pageSize(c: ActionContext, page: number) {
  return c.pageSize?.(page) ?? FALLBACK_SIZE;
}

export function inkOf(state: PresenterState, page: number): readonly Stroke[] {
  return state.ink[page] ?? EMPTY;
}

/** Replace the current page's strokes as one undoable step. */
function editInk(state: PresenterState, next: readonly Stroke[]): PresenterState {
  const page = state.page;
  const before = inkOf(state, page);
  if (next === before) return state;
  const history: InkHistory = state.inkHistory[page] ?? { undo: [], redo: [] };
  return {
    ...state,
    ink: { ...state.ink, [page]: next },
    inkHistory: { ...state.inkHistory, [page]: { undo: [...history.undo, before].slice(-UNDO_LIMIT), redo: [] } },
  };
}

function undoRedo(state: PresenterState, direction: "undo" | "redo"): PresenterState {
  const page = state.page;
  const history = state.inkHistory[page];
  const from = direction === "undo" ? history?.undo : history?.redo;
  if (!history || !from?.length) return state;
  const target = from[from.length - 1]!;
  const rest = from.slice(0, -1);
  const current = inkOf(state, page);
  const next: InkHistory = direction === "undo" ? { undo: rest, redo: [...history.redo, current] } : { undo: [...history.undo, current], redo: rest };
  return { ...state, ink: { ...state.ink, [page]: target }, inkHistory: { ...state.inkHistory, [page]: next } };
}

function setMode(state: PresenterState, mode: Mode): PresenterState {
  // A typed number was settled before this runs (actions.ts): the tool's own key is the choice.
  if (state.mode === mode) return state;
  return { ...state, mode, overlays: { ...state.overlays, pointer: null, live: null } };
}

/** The size a +/- press acts on in this mode. */
function sizeKey(mode: Mode): keyof ToolSizes | null {
  return mode === "pen" || mode === "eraser" || mode === "pointer" || mode === "spotlight" ? mode : null;
}

/** +/- while a tool is in hand (also during a stroke: the stroke being drawn follows). */
export function resizeTool(state: PresenterState, up: boolean): PresenterState {
  const key = sizeKey(state.mode);
  if (!key) return state;
  const [min, max] = SIZE_LIMITS[key];
  const value = Math.round(Math.min(max, Math.max(min, state.sizes[key] * (up ? SIZE_STEP : 1 / SIZE_STEP))) * 10) / 10;
  const sizes = { ...state.sizes, [key]: value };
  const o = state.overlays;
  const overlays = key === "pen" && o.live ? { ...o, live: { ...o.live, width: value } } : o.pointer && (key === "pointer" || key === "spotlight") ? { ...o, pointer: { ...o.pointer, r: value } } : o;
  return { ...state, sizes, overlays };
}

interface Sample {
  x: number;
  y: number;
  pressure?: number;
  /** The device reports pressure (pen, touch); a mouse does not. */
  hasPressure?: boolean;
}

function isSample(v: unknown): v is Sample {
  const s = v as Sample | null;
  return !!s && Number.isFinite(s.x) && Number.isFinite(s.y);
}

function samples(arg: unknown): Sample[] {
  if (Array.isArray(arg)) return arg.filter(isSample);
  return isSample(arg) ? [arg] : [];
}

/** Remove the strokes the eraser touches at these points; one undoable step per call. */
function eraseAt(state: PresenterState, points: Point[]): PresenterState {
  const r = state.sizes.eraser;
  const strokes = inkOf(state, state.page);
  const kept = strokes.filter((stroke) => !points.some((p) => touches(stroke, p, r)));
  return kept.length === strokes.length ? state : editInk(state, kept);
}

function strokeStart(state: PresenterState, c: ActionContext, arg: unknown): PresenterState {
  const [first] = samples(arg);
  if (!first) return state;
  // A typed number was settled before this runs (actions.ts): a lone digit's tool is in hand.
  const s = state;
  if (s.mode === "eraser") return eraseAt(s, [first]);
  if (s.mode !== "pen") return s;
  const live: Stroke = { id: strokeId(c.now, ++sequence), color: s.pen.color, width: s.sizes.pen, points: samplePoint(first.x, first.y, first.pressure) };
  if (!first.hasPressure) live.simulated = true;
  return { ...s, overlays: { ...s.overlays, live } };
}

function strokeMove(state: PresenterState, arg: unknown): PresenterState {
  const list = samples(arg);
  if (!list.length) return state;
  if (state.mode === "eraser") return eraseAt(state, list);
  const live = state.overlays.live;
  if (!live) return state;
  const points = appendPoints(live.points, list.map((p) => samplePoint(p.x, p.y, p.pressure)));
  return points.length === live.points.length ? state : { ...state, overlays: { ...state.overlays, live: { ...live, points } } };
}

function strokeEnd(state: PresenterState): PresenterState {
  const live = state.overlays.live;
  if (!live) return state;
  const cleared = { ...state, overlays: { ...state.overlays, live: null } };
  return editInk(cleared, [...inkOf(state, state.page), live]);
}

/** The pointer's place (Pointer and Spotlight); null when it leaves the slide. */
function movePointer(state: PresenterState, arg: unknown): PresenterState {
  if (state.mode !== "pointer" && state.mode !== "spotlight") return state.overlays.pointer ? { ...state, overlays: { ...state.overlays, pointer: null } } : state;
  const r = state.mode === "pointer" ? state.sizes.pointer : state.sizes.spotlight;
  if (!isSample(arg)) return state.overlays.pointer ? { ...state, overlays: { ...state.overlays, pointer: null } } : state;
  const x = Math.round(arg.x * 10) / 10;
  const y = Math.round(arg.y * 10) / 10;
  const p = state.overlays.pointer;
  if (p && p.x === x && p.y === y && p.r === r) return state;
  return { ...state, overlays: { ...state.overlays, pointer: { x, y, r } } };
}

function isRect(v: unknown): v is Rect {
  const r = v as Rect | null;
  return !!r && [r.x, r.y, r.w, r.h].every(Number.isFinite);
}

function zoomTo(state: PresenterState, c: ActionContext, arg: unknown): PresenterState {
  const size = pageSize(c, state.page);
  let zoom: Rect | null = null;
  if (isRect(arg)) zoom = Math.abs(arg.w) < 2 && Math.abs(arg.h) < 2 ? zoomAround(arg, CLICK_ZOOM, size) : fitZoom(arg, size);
  else if (isSample(arg)) zoom = zoomAround(arg, CLICK_ZOOM, size);
  if (!zoom) return state;
  return { ...state, zoomSelect: false, overlays: { ...state.overlays, zoom } };
}

function freeze(state: PresenterState): PresenterState {
  if (state.frozen) return { ...state, frozen: null };
  const seen = audienceView(state);
  return { ...state, frozen: { page: seen.page, mode: seen.mode, overlays: { ...seen.overlays, pointer: null, live: null }, ink: seen.ink, media: seen.media } };
}

const mode = (name: PresenterAction["name"], m: Mode, label: string): PresenterAction => ({ name, label, perform: (s) => setMode(s, m) });

export const TOOL_ACTIONS: PresenterAction[] = [
  mode("modeNormal", "normal", "Normal: clicks step the talk"),
  mode("modePointer", "pointer", "Pointer: a laser dot the audience sees"),
  mode("modePen", "pen", "Pen: draw on the slide"),
  mode("modeEraser", "eraser", "Eraser: wipe strokes away"),
  mode("modeSpotlight", "spotlight", "Spotlight: dim all but a circle around the pointer"),
  {
    name: "penColor",
    label: "Pen colour",
    internal: true,
    perform: (s, _c, arg) => (typeof arg === "string" && /^#[0-9a-f]{6}$/i.test(arg) ? { ...setMode(s, "pen"), pen: { color: arg.toLowerCase() } } : s),
  },
  {
    name: "penWidth",
    label: "Pen width",
    internal: true,
    perform: (s, _c, arg) => (typeof arg === "number" && (PEN_WIDTHS as readonly number[]).includes(arg) ? { ...setMode(s, "pen"), sizes: { ...s.sizes, pen: arg } } : s),
  },
  { name: "pointer", label: "The pointer moved over the slide", internal: true, perform: (s, _c, arg) => movePointer(s, arg) },
  { name: "strokeStart", label: "Pen or eraser down on the slide", internal: true, perform: strokeStart },
  { name: "strokeMove", label: "Pen or eraser moved", internal: true, perform: (s, _c, arg) => strokeMove(s, arg) },
  { name: "strokeEnd", label: "Pen or eraser lifted", internal: true, perform: (s) => strokeEnd(s) },
  { name: "erase", label: "Erase at a point", internal: true, perform: (s, _c, arg) => eraseAt(s, samples(arg)) },
  { name: "clearInk", label: "Clear this slide's ink", perform: (s) => editInk(s, EMPTY) },
  { name: "toggleInk", label: "Hide or show all ink", perform: (s) => ({ ...s, overlays: { ...s.overlays, inkHidden: !s.overlays.inkHidden } }) },
  { name: "undo", label: "Undo the last ink change on this slide", perform: (s) => undoRedo(s, "undo") },
  { name: "redo", label: "Redo", perform: (s) => undoRedo(s, "redo") },
  {
    name: "zoom",
    label: "Zoom: drag a region of the slide (or click a point); again or Esc to return",
    perform: (s) => (s.overlays.zoom ? { ...s, zoomSelect: false, overlays: { ...s.overlays, zoom: null } } : { ...s, zoomSelect: !s.zoomSelect }),
  },
  { name: "zoomTo", label: "Zoom into a region", internal: true, perform: zoomTo },
  { name: "freeze", label: "Freeze the audience's picture while you move on; again to return to your slide", remote: true, perform: freeze },
];
