/**
 * @module live/events
 * What the live-session domain tells the sockets, as a port (PocketBase's app events): the
 * service (./service.ts) announces that a talk ended or its remote link was rotated, and asks
 * whether a talk's presenter is connected here; the hub (./hub.ts) answers. The service is
 * built before the hub (the hub needs it), so it is given a relay that the hub listens on.
 */
import type { LiveEndReason } from "../core/live-sessions.ts";

export interface LiveEvents {
  /**
   * A session ended (by the presenter, expiry, the quota or the grace timer); `already`: it
   * had been ended before (by another instance, which told the others), and only this
   * instance's sockets are left to close.
   */
  ended(code: string, reason: LiveEndReason, already: boolean): void;
  /** The control secret was rotated to `generation`. */
  rotated(code: string, generation: number): void;
  /** Is the presenter of `code` connected to this instance? (The sweep never ends such a talk.) */
  presenterHere(code: string): boolean;
}

/** Events with nobody listening (no sockets on this instance: the CLI, a service alone). */
const nobody: LiveEvents = { ended: () => {}, rotated: () => {}, presenterHere: () => false };

/** Hands the service's events to the one listener (the hub) that registered. */
export class LiveEventRelay implements LiveEvents {
  private listener: LiveEvents = nobody;

  listen(listener: LiveEvents): void {
    this.listener = listener;
  }

  ended(code: string, reason: LiveEndReason, already: boolean): void {
    this.listener.ended(code, reason, already);
  }

  rotated(code: string, generation: number): void {
    this.listener.rotated(code, generation);
  }

  presenterHere(code: string): boolean {
    return this.listener.presenterHere(code);
  }
}
