/**
 * @module core/live
 * The seam for live presenting: a presenter's state fans out to viewers who may
 * be connected to other instances. A `LiveBus` carries a message published on one instance to
 * the subscribers of that channel on every instance: in process for the embedded default, over
 * PostgreSQL LISTEN/NOTIFY when instances share a database (the socket hub publishes on it).
 * Live sessions themselves are rows behind the `LiveSessionRepository` port
 * (./live-sessions.ts), implemented by the same two databases and opened by store/backends.
 */

export interface LiveSubscription {
  /** Stop receiving (idempotent). */
  close(): Promise<void>;
}

export interface LiveBus {
  /**
   * Deliver `message` to every subscriber of `channel`, on this instance and the others.
   * At most `MAX_LIVE_MESSAGE_BYTES` (PostgreSQL's NOTIFY payload limit, minus headroom):
   * larger state travels by reference (a row), not on the bus.
   */
  publish(channel: string, message: string): Promise<void>;
  /** Receive the messages published on `channel` from now on, in the order they were sent. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<LiveSubscription>;
  close(): Promise<void>;
}

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_LIVE_MESSAGE_BYTES = 7_900;
