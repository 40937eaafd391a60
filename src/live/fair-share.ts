/**
 * @module live/fair-share
 * How much of a bounded room one address (an IPv6 address by its /64) may hold: a talk's
 * viewer seats, the instance's live sockets. A fixed share (half) let two addresses fill the
 * room, so an address's share shrinks as the room fills and room is kept for addresses not yet
 * seen: a place is taken only if the places still free after it are at least as many as the
 * address then holds, plus a tenth of the room; an address holding fewer than four may take
 * any free place. One address alone gets 45% of an empty room (a classroom behind one NAT), a
 * second 22%, and however many large addresses come, the last tenth goes only to addresses
 * holding fewer than four. Stated with an example in docs/operating/availability.md.
 */

/** Part of the room kept for addresses holding few places: newcomers find room whoever came first. */
export const KEPT_FOR_NEWCOMERS = 0.1;
/** Places an address may always hold while any is free: a household or a small office on one connection. */
export const SMALL_ADDRESS = 4;

export interface RoomUse {
  /** Places the room has in all. */
  size: number;
  /** Places taken now, by every address. */
  taken: number;
}

/** Places kept free of large addresses in a room of `size`. */
export function keptFree(size: number): number {
  return Math.ceil(size * KEPT_FOR_NEWCOMERS);
}

/**
 * May an address holding `held` places take one more? "full": no place is free; "share": the
 * address holds its share of the room as it is now (it may take more once others leave, or
 * never, as the room fills).
 */
export function mayTake(room: RoomUse, held: number): "ok" | "full" | "share" {
  const free = room.size - room.taken;
  if (free <= 0) return "full";
  if (held < SMALL_ADDRESS) return "ok";
  return free - 1 >= held + 1 + keptFree(room.size) ? "ok" : "share";
}
