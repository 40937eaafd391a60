/**
 * @module client/live/presenter/state-relay
 * What the presenter's socket sends as the presenter state changes: the state the audience
 * window gets — with the timer for the phone remote, media times in the server's clock,
 * fitted to the message limit (./fit-state.ts) — whenever what the audience sees changes,
 * and the pointer and the stroke being drawn at most once a frame. A page with more ink than
 * one message holds goes as the state without its ink, then one message a stroke.
 */
import { MAX_LIVE_MESSAGE_BYTES_IN, type LiveStateT } from "../../../../src/shared/live-protocol.ts";
import { audienceChanged, audienceView, onlyOverlaysChanged } from "../../presenter/audience.ts";
import type { PresenterState } from "../../presenter/state.ts";
import { shiftMedia } from "../connection/clock.ts";
import type { LiveSocket } from "../connection/socket.ts";
import { fitLiveState, fitStroke } from "./fit-state.ts";

/** A state message over this many UTF-8 bytes goes without its ink; the strokes follow one message each (the server takes up to 64 KiB). */
const STATE_BYTES = MAX_LIVE_MESSAGE_BYTES_IN - 1024;

export interface StateRelayDeps {
  /** The presenter's socket, when there is one. */
  socket: () => LiveSocket | null;
  state: () => PresenterState;
  /** The label of a page, as the counter shows it. */
  label: (page: number) => string;
}

export class StateRelay {
  /** Server clock minus this device's (media times travel in the server's clock). */
  offset = 0;
  private pointerFrame = 0;

  constructor(private readonly deps: StateRelayDeps) {}

  private liveState(state: PresenterState): LiveStateT {
    // The timer rides along for the phone remote (viewers do not show it).
    const seen = audienceView(state);
    return fitLiveState({ ...seen, media: shiftMedia(seen.media, this.offset), label: this.deps.label(state.page), timer: state.timer } as LiveStateT);
  }

  /** The whole state, now (on connecting, on a change the audience sees, on a timer tick). */
  send(): void {
    const state = this.liveState(this.deps.state());
    if (new TextEncoder().encode(JSON.stringify(state)).byteLength <= STATE_BYTES) {
      this.deps.socket()?.send({ type: "state", state });
      return;
    }
    // A page with a lot of ink: the server merges the strokes into its snapshot one by one.
    this.deps.socket()?.send({ type: "state", state: { ...state, ink: [] } });
    for (const stroke of state.ink) this.deps.socket()?.send({ type: "ink", ink: { op: "add", page: state.page, stroke } });
  }

  /** A change of the presenter state: what the audience sees goes, if it changed. */
  changed(state: PresenterState, previous: PresenterState): void {
    if (!this.deps.socket()?.open) return;
    const seen = audienceView(state);
    const before = audienceView(previous);
    if (state.timer !== previous.timer && !audienceChanged(seen, before)) return this.send();
    if (!audienceChanged(seen, before)) return;
    if (!onlyOverlaysChanged(seen, before)) {
      cancelAnimationFrame(this.pointerFrame);
      this.pointerFrame = 0;
      return this.send();
    }
    // The pointer and the stroke being drawn: at most one message a frame.
    if (this.pointerFrame) return;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const overlays = audienceView(this.deps.state()).overlays;
      const pointer = overlays.pointer && { x: overlays.pointer.x, y: overlays.pointer.y, r: overlays.pointer.r };
      this.deps.socket()?.send({ type: "pointer", pointer, live: overlays.live && fitStroke(overlays.live) });
    });
  }
}
