/**
 * @module client/live/presenter/fit-state
 * The presenter's audience state made to fit the live protocol's bounds, which the server
 * enforces by refusing the whole message: a page label of at most 64 characters, at most
 * 2,000 strokes a page, at most 12,000 numbers a stroke (a long stroke keeps every n-th sample
 * and its last one: the same shape, coarser), media ids of at most 128 characters. Without
 * this, one long stroke or label would stop every viewer from following. Every object is
 * rebuilt with exactly the protocol's fields (the server refuses unknown properties).
 */
import type { LiveStateT } from "../../../../src/shared/live-protocol.ts";
import type { Stroke } from "../../presenter/ink.ts";

const MAX_LABEL = 64;
const MAX_STROKES = 2000;
/** Numbers per stroke: x, y, pressure per sample. */
const MAX_POINTS = 12_000;
const MAX_MEDIA_ID = 128;
const STRIDE = 3;

/** Exactly the protocol's stroke fields: the server refuses a message with any other property. */
function exactStroke(stroke: Stroke): Stroke {
  return { id: stroke.id, color: stroke.color, width: stroke.width, points: stroke.points, ...(stroke.simulated !== undefined ? { simulated: stroke.simulated } : {}) };
}

export function fitStroke<S extends Stroke>(input: S): S {
  const stroke = exactStroke(input) as S;
  const samples = Math.floor(stroke.points.length / STRIDE);
  const room = Math.floor(MAX_POINTS / STRIDE);
  if (samples <= room) return stroke;
  const step = Math.ceil(samples / (room - 1));
  const points: number[] = [];
  for (let i = 0; i < samples; i += step) points.push(...stroke.points.slice(i * STRIDE, i * STRIDE + STRIDE));
  points.push(...stroke.points.slice((samples - 1) * STRIDE, samples * STRIDE));
  return { ...stroke, points };
}

/** Exactly the protocol's state fields (the presenter's own state carries more): nothing unknown leaves the window. */
function exactState(state: LiveStateT): LiveStateT {
  const { pointer, live, zoom, inkHidden } = state.overlays;
  const media = Object.fromEntries(Object.entries(state.media).map(([id, m]) => [id, { playing: m.playing, time: m.time, at: m.at, ...(m.ended !== undefined ? { ended: m.ended } : {}) }]));
  const timer = state.timer && { status: state.timer.status, startedAt: state.timer.startedAt, accumulatedMs: state.timer.accumulatedMs };
  return {
    page: state.page,
    ...(state.label !== undefined ? { label: state.label } : {}),
    blank: state.blank,
    mode: state.mode,
    overlays: { pointer: pointer && { x: pointer.x, y: pointer.y, r: pointer.r }, live, zoom: zoom && { x: zoom.x, y: zoom.y, w: zoom.w, h: zoom.h }, inkHidden },
    ink: state.ink,
    media,
    frozen: state.frozen,
    ...(timer ? { timer } : {}),
    ...(state.notesPosition !== undefined ? { notesPosition: state.notesPosition } : {}),
  };
}

export function fitLiveState(input: LiveStateT): LiveStateT {
  const state = exactState(input);
  let out = state;
  if (state.label && state.label.length > MAX_LABEL) out = { ...out, label: state.label.slice(0, MAX_LABEL) };
  const ink = state.ink.length > MAX_STROKES ? state.ink.slice(-MAX_STROKES) : state.ink;
  const fitted = ink.map((s) => fitStroke(s as Stroke));
  if (ink !== state.ink || fitted.some((s, i) => s !== ink[i])) out = { ...out, ink: fitted };
  const live = state.overlays.live;
  if (live && fitStroke(live as Stroke) !== live) out = { ...out, overlays: { ...state.overlays, live: fitStroke(live as Stroke) } };
  const ids = Object.keys(state.media);
  if (ids.some((id) => id.length > MAX_MEDIA_ID)) out = { ...out, media: Object.fromEntries(ids.filter((id) => id.length <= MAX_MEDIA_ID).map((id) => [id, state.media[id]!])) };
  return out;
}
