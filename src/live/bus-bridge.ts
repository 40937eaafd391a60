/**
 * @module live/bus-bridge
 * The talks' channels on the `LiveBus`, between instances serving the same talk (PostgreSQL):
 * what the presenter sends here reaches the viewers and remotes connected elsewhere, a
 * remote's command reaches whichever instance holds the presenter, and ends, rotations and
 * the presenter's presence are told to all, and so is every change to the audience one of
 * them accepts (./audience/relay.ts applies it). Each instance skips its own messages.
 */
import { randomBytes } from "../tools/random.ts";
import { type LiveServerMessageT, type LiveSnapshot, mergeLive } from "../shared/live-protocol.ts";
import type { LiveBus, LiveSubscription } from "../core/live.ts";
import { MAX_LIVE_MESSAGE_BYTES } from "../core/live.ts";
import type { LiveEndReason } from "../core/live-sessions.ts";
import type { Logger } from "../base/log.ts";
import { errorFields } from "../base/log.ts";
import type { AudienceEvent } from "./audience/events.ts";
import type { PresenterGrace } from "./presenter-grace.ts";
import { encode, type Room } from "./room.ts";
import type { LiveService } from "./service.ts";

/**
 * What instances tell each other about a talk on the LiveBus. `fanout`: a message for the
 * talk's viewers and remotes (`data: null` when it was too large for the bus: reload the
 * saved state); `ended`; `command`: a remote's command for whichever instance holds the
 * presenter; `rotated`; `presence`: "the presenter is connected here" (also the answer to
 * `query`, which an instance sends when it loads a talk); `audience`: a change to the talk's
 * questions, polls or reactions one instance accepted, for the others to apply;
 * `audienceSaved`: the answer to `to`'s `query` — "my copy of the audience, and of the state
 * when the presenter is here, is in the row now" (./audience/merge.ts says why for the
 * audience). The state matters as much: an instance reads the row, then listens, so a state
 * saved and relayed between the two would otherwise reach its viewers only with the next one.
 */
type Envelope = { from: string } & (
  | { kind: "fanout"; data: string | null }
  | { kind: "ended"; reason: LiveEndReason }
  | { kind: "command"; data: string }
  | { kind: "rotated"; generation: number }
  | { kind: "presence" }
  | { kind: "query" }
  | { kind: "audience"; event: AudienceEvent }
  | { kind: "audienceSaved"; to: string }
);
export type EnvelopeBody = Envelope extends infer E ? (E extends unknown ? Omit<E, "from"> : never) : never;

export interface BusBridgeDeps {
  bus: LiveBus;
  logger: Logger;
  service: Pick<LiveService, "find">;
  grace: PresenterGrace;
  /** Text to this instance's viewers and remotes of the talk. */
  publishLocal(room: Room, data: string): void;
  /** Is `room` still the one loaded for its code here? */
  loaded(room: Room): boolean;
  /** Another instance ended the talk: this instance's sockets are told and closed. */
  ended(code: string, reason: LiveEndReason): void;
  /** Another instance rotated the remote link: this instance's old remotes are closed. */
  rotated(code: string, generation: number): void;
  /** Another instance accepted a change to the talk's audience: applied here too. */
  audience(room: Room, event: AudienceEvent): void;
  /** Write this instance's copy of the audience, and of the state when the presenter is connected here, to the row (another instance loading the talk asked). */
  saveCopy(room: Room): Promise<void>;
  /** An instance wrote its copy of the audience for this one: merge the row into this copy. */
  audienceSaved(room: Room): void;
}

export class LiveBusBridge {
  private readonly instance = randomBytes(8).toString("hex");

  constructor(private readonly deps: BusBridgeDeps) {}

  /** Listen on the talk's channel; once listening, ask whether its presenter is elsewhere. */
  subscribe(room: Room): Promise<LiveSubscription> {
    const subscription = this.deps.bus.subscribe(room.code, (data) => this.received(room, data));
    // Is the presenter connected to another instance? (It answers with `presence`.)
    void subscription.then(() => this.publish(room.code, { kind: "query" }));
    return subscription;
  }

  /** On the talk's channel, whether or not the talk is loaded here (other instances may hold its sockets). */
  publish(code: string, envelope: EnvelopeBody): void {
    void this.deps.bus.publish(code, JSON.stringify({ from: this.instance, ...envelope })).catch((error) => this.deps.logger.error("live_bus_failed", { code, ...errorFields(error) }));
  }

  /**
   * A message this instance sent to its sockets, for the other instances' sockets. One too
   * large for the bus makes them reload the saved state instead (the state is saved before
   * it is relayed).
   */
  fanout(room: Room, data: string): void {
    this.publish(room.code, { kind: "fanout", data: Buffer.byteLength(data) + 100 <= MAX_LIVE_MESSAGE_BYTES ? data : null });
  }

  private received(room: Room, text: string): void {
    // Our own messages come back on the bus too: skip them without parsing (a state can be large).
    if (text.startsWith(`{"from":"${this.instance}"`)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.instance || !this.deps.loaded(room)) return;
    switch (envelope.kind) {
      case "query": {
        if (room.presenter) this.publish(room.code, { kind: "presence" });
        // The row may lag this copy by a second of viewers' changes, and by the state saved
        // just before it was relayed: written now, for the asker.
        const to = envelope.from;
        void this.deps.saveCopy(room).then(() => this.publish(room.code, { kind: "audienceSaved", to }));
        return;
      }
      case "audienceSaved":
        if (envelope.to !== this.instance) return;
        this.deps.audienceSaved(room);
        return this.reloadState(room);
      case "presence":
        return this.deps.grace.remote(room);
      case "ended":
        return this.deps.ended(room.code, envelope.reason);
      case "rotated":
        return this.deps.rotated(room.code, envelope.generation);
      case "command":
        room.presenter?.send(envelope.data);
        return;
      case "fanout":
        return this.fanoutReceived(room, envelope.data);
      case "audience":
        return this.deps.audience(room, envelope.event);
    }
  }

  /** The state saved in the row, when it is newer than this instance's: into its snapshot and to its sockets. */
  private reloadState(room: Room): void {
    void this.deps.service
      .find(room.code)
      .then((row) => {
        if (!row?.stateJson || !this.deps.loaded(room)) return;
        const snapshot = JSON.parse(row.stateJson) as LiveSnapshot;
        if (snapshot.state && snapshot.seq > room.snapshot.seq) {
          room.snapshot = snapshot;
          this.deps.grace.remote(room);
          this.deps.publishLocal(room, encode({ v: 1, type: "state", seq: snapshot.seq, state: snapshot.state }));
        }
      })
      .catch((error) => this.deps.logger.error("live_bus_failed", { code: room.code, ...errorFields(error) }));
  }

  /** A message another instance sent to its sockets: to this instance's sockets too, and into its snapshot. */
  private fanoutReceived(room: Room, data: string | null): void {
    if (data === null) return this.reloadState(room);
    const message = JSON.parse(data) as LiveServerMessageT;
    if (message.type === "state" || message.type === "pointer" || message.type === "ink") {
      // Keep this instance's snapshot current, so its late joiners get the state at once.
      const { seq, ...body } = message;
      room.snapshot = { ...mergeLive(room.snapshot, body as Parameters<typeof mergeLive>[1]), seq };
      this.deps.grace.remote(room);
    } else if (message.type === "paused") {
      this.deps.grace.remoteDeparted(room);
    } else if (message.type === "resumed") {
      this.deps.grace.remote(room);
    } else if (message.type === "settings") {
      room.row = { ...room.row, allowDownload: message.allowDownload };
    } else if (message.type === "counts") {
      return;
    }
    this.deps.publishLocal(room, data);
  }
}
