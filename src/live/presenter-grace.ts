/**
 * @module live/presenter-grace
 * Where a talk's presenter is, and how long its viewers wait for it. While it is connected
 * here the instance says so on the bus (presence) and renews the row's "last seen" (so no
 * instance's sweep ends the talk); when it leaves, viewers get `paused` and the grace period
 * runs: a presenter that does not come back within it (here or on another instance) ends the
 * talk as "presenter-gone".
 */
import type { LiveServerMessageT } from "../shared/live-protocol.ts";
import { isoSeconds } from "../tools/time.ts";
import type { Logger } from "../base/log.ts";
import { errorFields } from "../base/log.ts";
import type { Room } from "./room.ts";
import type { Scheduler } from "./scheduler.ts";
import type { LiveService } from "./service.ts";

/** The instance holding a presenter says so on the bus this often… */
const PRESENCE_MS = 30_000;
/** …and other instances count it as present for this long after hearing from it. */
const PRESENCE_TTL_MS = 2 * PRESENCE_MS + 5_000;
/** The row's "presenter last seen" is renewed this often while connected (less for a short grace). */
const SEEN_MS = 60_000;

export interface PresenterGraceDeps {
  service: Pick<LiveService, "end" | "presenterSeen">;
  logger: Logger;
  clock: () => number;
  scheduler: Scheduler;
  graceMs: number;
  /** To every socket of the talk, here and on other instances. */
  broadcast(room: Room, message: LiveServerMessageT): void;
  /** To this instance's viewers and remotes only. */
  publishLocal(room: Room, message: LiveServerMessageT): void;
  /** Tell the other instances that the talk's presenter is connected here. */
  announce(room: Room): void;
}

export class PresenterGrace {
  constructor(private readonly deps: PresenterGraceDeps) {}

  /** A presenter is connected here, or was heard of on another instance lately. */
  connected(room: Room): boolean {
    return room.presenter !== null || room.remotePresenterUntil > this.deps.clock();
  }

  /** The presenter joined here (`room.presenter` is set): no grace, viewers resume, heartbeats run. */
  arrived(room: Room): void {
    room.graceTimer?.cancel();
    room.graceTimer = null;
    if (room.pausedUntil !== null) {
      room.pausedUntil = null;
      this.deps.broadcast(room, { v: 1, type: "resumed" });
    }
    this.deps.announce(room);
    room.presenceTimer ??= this.deps.scheduler.every(PRESENCE_MS, () => {
      if (room.presenter) this.deps.announce(room);
    });
    // The row says the presenter is here, so no instance's sweep ends the talk as gone.
    this.seen(room);
    room.seenTimer ??= this.deps.scheduler.every(Math.min(SEEN_MS, this.deps.graceMs / 3), () => {
      if (room.presenter) this.seen(room);
    });
  }

  /** The presenter left this instance (`room.presenter` is null again): the grace period runs. */
  departed(room: Room): void {
    room.presenceTimer?.cancel();
    room.presenceTimer = null;
    room.seenTimer?.cancel();
    room.seenTimer = null;
    // The grace period (here and in the sweep) counts from this leave.
    this.seen(room);
    this.start(room);
    if (room.pausedUntil !== null) this.deps.broadcast(room, { v: 1, type: "paused", until: isoSeconds(room.pausedUntil) });
  }

  /** Start the grace period unless it runs or a presenter is connected here. */
  start(room: Room): void {
    if (room.graceTimer || room.presenter) return;
    room.pausedUntil = this.deps.clock() + this.deps.graceMs;
    room.graceTimer = this.deps.scheduler.after(this.deps.graceMs, () => {
      room.graceTimer = null;
      // The presenter is connected to another instance: this one's viewers are not waiting.
      if (!room.presenter && room.remotePresenterUntil > this.deps.clock()) return;
      if (!room.presenter) void this.deps.service.end(room.code, "presenter-gone").catch((error) => this.deps.logger.error("live_end_failed", { code: room.code, ...errorFields(error) }));
    });
  }

  /** A presenter on another instance is alive: this instance's viewers are not paused. */
  remote(room: Room): void {
    room.remotePresenterUntil = this.deps.clock() + PRESENCE_TTL_MS;
    room.graceTimer?.cancel();
    room.graceTimer = null;
    if (room.pausedUntil !== null && !room.presenter) {
      room.pausedUntil = null;
      this.deps.publishLocal(room, { v: 1, type: "resumed" });
    }
  }

  /** Another instance's presenter left (it sent `paused`): the grace period runs here too. */
  remoteDeparted(room: Room): void {
    room.remotePresenterUntil = 0;
    if (!room.presenter) this.start(room);
  }

  private seen(room: Room): void {
    void this.deps.service.presenterSeen(room.code).catch((error) => this.deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) }));
  }
}
