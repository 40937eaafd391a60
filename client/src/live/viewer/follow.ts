/**
 * @module client/live/viewer/follow
 * What a live viewer shows, as a pure value: the presenter's state as the server relays it
 * (ordered by the server's `seq`, so a late or repeated message never moves the picture
 * back), and whether the viewer follows it or pages through the deck on its own. Leaving
 * follow keeps receiving — "Back to live" shows the presenter's picture of that moment at
 * once. Tested without a browser.
 */
import { mergeLive, type LiveServerMessageT, type LiveSnapshot, type LiveStateT } from "../../../../src/shared/live-protocol.ts";
import type { AudienceState } from "../../presenter/audience.ts";
import { NO_OVERLAYS } from "../../presenter/state.ts";

export interface ViewerModel {
  /** The presenter's picture (null until a presenter sent one) and the last seq applied. */
  live: LiveSnapshot;
  following: boolean;
  /** The page the viewer looks at while not following. */
  ownPage: number;
}

export const INITIAL_VIEWER: ViewerModel = { live: { seq: -1, state: null }, following: true, ownPage: 1 };

type Relayed = Extract<LiveServerMessageT, { type: "state" | "pointer" | "ink" }>;

/** Take one relayed presenter message; one not newer than the last applied changes nothing. */
export function receive(model: ViewerModel, message: Relayed): ViewerModel {
  if (message.seq <= model.live.seq) return model;
  const live = mergeLive({ seq: message.seq - 1, state: model.live.state }, message.type === "state" ? { v: 1, type: "state", state: message.state } : message.type === "pointer" ? withoutSeq(message) : { v: 1, type: "ink", ink: message.ink });
  return { ...model, live };
}

function withoutSeq(message: Extract<Relayed, { type: "pointer" }>) {
  return message.live === undefined ? { v: 1 as const, type: "pointer" as const, pointer: message.pointer } : { v: 1 as const, type: "pointer" as const, pointer: message.pointer, live: message.live };
}

/** A (re)connection's `hello`: its snapshot is the new baseline, whatever seq came before (a restarted server may count from its own store). */
export function greet(model: ViewerModel, hello: { seq: number; state: LiveStateT | null }): ViewerModel {
  return { ...model, live: { seq: hello.seq, state: hello.state ?? model.live.state } };
}

/** Leave follow to page on one's own, starting from the slide on screen. */
export function leave(model: ViewerModel, page: number): ViewerModel {
  return { ...model, following: false, ownPage: page };
}

/** Page on one's own (leaves follow); clamped to the deck. */
export function turn(model: ViewerModel, page: number, pageCount: number): ViewerModel {
  return { ...model, following: false, ownPage: Math.min(Math.max(1, page), Math.max(1, pageCount)) };
}

/** "Back to live". */
export function rejoin(model: ViewerModel): ViewerModel {
  return { ...model, following: true };
}

/** The state the slide area shows now, or null before the presenter's first picture. */
export function shown(model: ViewerModel): AudienceState | null {
  if (!model.following) {
    // On one's own the slides are still split as the presenter splits them.
    const position = model.live.state?.notesPosition;
    return { page: model.ownPage, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false, ...(position ? { notesPosition: position } : {}) };
  }
  const state = model.live.state;
  if (!state) return null;
  const { label: _label, ...audience } = state;
  return audience as AudienceState;
}
