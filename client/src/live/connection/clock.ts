/**
 * @module client/live/connection/clock
 * Media playback carries the wall-clock time it was read (`at`), and a viewer extrapolates a
 * playing medium from it. Devices' clocks differ by seconds, so over the wire `at` is in the
 * server's clock: the presenter shifts its readings by its offset to the server (from
 * `hello.serverTime`), each viewer shifts them back by its own.
 */
import type { MediaPlayback } from "../../presenter/state.ts";

/** The offset to add to this device's clock to get the server's, from a `serverTime` read now. */
export function clockOffset(serverTime: number, now: number = Date.now()): number {
  return Number.isFinite(serverTime) ? serverTime - now : 0;
}

/** The same media with every `at` moved by `deltaMs` (the same object when there is nothing to move). */
export function shiftMedia<M extends Record<string, MediaPlayback>>(media: M, deltaMs: number): M {
  const ids = Object.keys(media);
  if (!deltaMs || !ids.length) return media;
  const out: Record<string, MediaPlayback> = {};
  for (const id of ids) out[id] = { ...media[id]!, at: media[id]!.at + deltaMs };
  return out as M;
}
