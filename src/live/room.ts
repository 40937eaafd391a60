/**
 * @module live/room
 * One live talk as this instance holds it: its row and in-memory snapshot, its sockets by
 * role, the viewer seats each address holds, and the timers running for it. Loaded from the
 * row when the first socket joins (./hub.ts), saved back, unloaded when nobody is left.
 */
import { compiledOnFirstUse } from "../tools/compiled-check.ts";
import { type LiveServerMessageT, type LiveSnapshot, liveStateOverBounds, LiveState } from "../shared/live-protocol.ts";
import type { LiveSubscription } from "../core/live.ts";
import type { LiveSessionRow } from "../core/live-sessions.ts";
import type { Audience } from "./audience.ts";
import type { Timer } from "./scheduler.ts";
import type { LiveSocket } from "./socket-policy.ts";

const checkState = compiledOnFirstUse(LiveState);

export interface Room {
  code: string;
  row: LiveSessionRow;
  snapshot: LiveSnapshot;
  presenter: LiveSocket | null;
  controls: Set<LiveSocket>;
  viewers: Set<LiveSocket>;
  /** Viewer seats by address key: one address holds at most --max-viewers-per-address. */
  viewersByAddress: Map<string, number>;
  graceTimer: Timer | null;
  pausedUntil: number | null;
  countsTimer: Timer | null;
  saveTimer: Timer | null;
  bus: Promise<LiveSubscription> | null;
  /** Until when a presenter on another instance counts as connected (0: none known). */
  remotePresenterUntil: number;
  presenceTimer: Timer | null;
  seenTimer: Timer | null;
  /** Questions, polls and reactions (issue 23), restored from the row's `audienceJson`. */
  audience: Audience;
  /** The next coalesced send of up-votes, poll results and reactions (./audience-relay.ts). */
  audienceTimer: Timer | null;
  /** The next coalesced write of the audience to the row. */
  audienceSaveTimer: Timer | null;
  /** Up-votes, shown results and shown reactions for viewers, coalesced until their slower tick (./audience-relay.ts). */
  audienceForViewers: Map<string, LiveServerMessageT>;
  /** The audience's writes to the row, one after another. */
  audienceWrites: Promise<void>;
  audienceViewersTimer: Timer | null;
  /** The presenter's and remotes' audience changes, each relayed once written, in order (./audience-relay.ts). */
  audienceStaff: Promise<void>;
}

/** The Bun pub/sub topic of a talk's viewers and remotes on this instance. */
export const topicOf = (code: string) => `live:${code}`;
/** The Bun pub/sub topic of a talk's viewers alone on this instance: what the audience sends them (./audience-relay.ts). */
export const viewersTopicOf = (code: string) => `live:${code}:viewers`;
export const encode = (message: LiveServerMessageT) => JSON.stringify(message);

/** The snapshot saved in the row, or an empty one. */
function savedSnapshot(row: LiveSessionRow): LiveSnapshot {
  let snapshot: LiveSnapshot = { seq: 0, state: null };
  if (!row.stateJson) return snapshot;
  try {
    snapshot = JSON.parse(row.stateJson) as LiveSnapshot;
    // A state saved before every object was closed may carry unknown properties or be
    // over today's bounds: it is dropped (the seq stays), the presenter sends it again.
    if (snapshot.state !== null && (!checkState().Check(snapshot.state) || liveStateOverBounds(snapshot.state) !== null)) snapshot = { seq: snapshot.seq, state: null };
  } catch {
    // A damaged snapshot only costs the resync: the presenter sends its state again.
  }
  return snapshot;
}

/** A room for an open session's row, with nobody in it yet. */
export function newRoom(code: string, row: LiveSessionRow, audience: Audience): Room {
  return {
    code,
    row,
    snapshot: savedSnapshot(row),
    presenter: null,
    controls: new Set(),
    viewers: new Set(),
    viewersByAddress: new Map(),
    graceTimer: null,
    pausedUntil: null,
    countsTimer: null,
    saveTimer: null,
    bus: null,
    remotePresenterUntil: 0,
    presenceTimer: null,
    seenTimer: null,
    audience,
    audienceTimer: null,
    audienceSaveTimer: null,
    audienceForViewers: new Map(),
    audienceWrites: Promise.resolve(),
    audienceViewersTimer: null,
    audienceStaff: Promise.resolve(),
  };
}

/** Every socket joined to the room here: the presenter first. */
export function socketsOf(room: Room): LiveSocket[] {
  return [room.presenter, ...room.controls, ...room.viewers].filter((ws): ws is LiveSocket => ws !== null);
}

/** Viewer seats `room` gives the address of `ws` now. */
export function seatsOf(room: Room, ws: LiveSocket): number {
  return room.viewersByAddress.get(ws.data.addressKey) ?? 0;
}

export function addViewer(room: Room, ws: LiveSocket): void {
  room.viewers.add(ws);
  room.viewersByAddress.set(ws.data.addressKey, seatsOf(room, ws) + 1);
}

/** Remove a viewer and give its address's seat back (a no-op for other sockets). */
export function removeViewer(room: Room, ws: LiveSocket): void {
  if (!room.viewers.delete(ws)) return;
  const seats = (room.viewersByAddress.get(ws.data.addressKey) ?? 1) - 1;
  if (seats > 0) room.viewersByAddress.set(ws.data.addressKey, seats);
  else room.viewersByAddress.delete(ws.data.addressKey);
}

/** Cancel every timer of the room (it is being unloaded). */
export function cancelTimers(room: Room): void {
  for (const timer of [room.countsTimer, room.presenceTimer, room.seenTimer, room.graceTimer, room.audienceTimer, room.audienceViewersTimer]) timer?.cancel();
}
