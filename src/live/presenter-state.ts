/**
 * @module live/presenter-state
 * The presenter's picture of the talk on this instance: its state, pointer and ink messages
 * merged into the room's snapshot (bounded before anything is taken), relayed to viewers and
 * remotes, and written to the row — at once for a state, within a second for the frequent
 * pointer moves and strokes — and the presenter's settings (allowDownload).
 */
import { type LiveClientMessageT, type LiveServerMessageT, liveStateOverBounds, mergeLive } from "../shared/live-protocol.ts";
import { errorFields, type Logger } from "../base/log.ts";
import type { Room } from "./room.ts";
import type { Scheduler } from "./scheduler.ts";
import type { LiveService } from "./service.ts";
import type { LiveSocket, SocketPolicy } from "./socket-policy.ts";

/** Pointer moves and strokes are kept in memory and written to the row at most this often. */
const POINTER_SAVE_MS = 1_000;

export interface PresenterStateDeps {
  service: LiveService;
  policy: SocketPolicy;
  scheduler: Scheduler;
  logger: Logger;
  /** To every viewer and remote of the talk (here and on other instances), not to the presenter. */
  broadcast(room: Room, message: LiveServerMessageT, options?: { presenter?: boolean }): void;
}

export class PresenterState {
  constructor(private readonly deps: PresenterStateDeps) {}

  relay(ws: LiveSocket, room: Room, message: Extract<LiveClientMessageT, { type: "state" | "pointer" | "ink" }>): void {
    const next = mergeLive(room.snapshot, message);
    // The snapshot is kept, saved and sent to every late joiner: bounded in strokes, numbers
    // and bytes (per stroke, per slide, in all) before anything is taken or relayed.
    const over = liveStateOverBounds(next.state);
    if (over !== null) return this.deps.policy.error(ws, "TOO_LARGE", over);
    room.snapshot = next;
    const seq = room.snapshot.seq;
    if (message.type !== "state") {
      // Pointer moves and strokes are frequent: saved with the next state, or within a
      // second (a restart loses at most that; the presenter sends its whole state again).
      room.saveTimer ??= this.deps.scheduler.after(POINTER_SAVE_MS, () => {
        room.saveTimer = null;
        void this.save(room);
      });
      this.deps.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
      return;
    }
    void this.save(room);
    this.deps.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
  }

  /** Write the snapshot to the row; a failure is logged (the next state writes it again). */
  save(room: Room): Promise<void> {
    return this.deps.service.repo.saveState(room.code, JSON.stringify(room.snapshot)).catch((error) => this.deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) }));
  }

  async settings(room: Room, allowDownload: boolean): Promise<void> {
    room.row = { ...room.row, allowDownload };
    await this.deps.service.repo.setAllowDownload(room.code, allowDownload);
    this.deps.broadcast(room, { v: 1, type: "settings", allowDownload });
  }
}
