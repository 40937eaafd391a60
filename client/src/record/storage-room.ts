/**
 * @module client/record/storage-room
 * Whether this browser has room for a recording, asked before it starts and every half
 * minute while it runs (`navigator.storage.estimate`): how many minutes more fit at the rate
 * the recording actually writes. Too little to start is refused in a sentence; running low
 * is said well before the end; the end itself (a refused write) stops the recording cleanly
 * (./piece-writer.ts). `persist()` is asked at the start, so the browser does not clear
 * recordings to make room for other sites.
 */

/** Fewer minutes than this left: no start, and a warning while recording. */
export const LOW_MINUTES = 10;
/** How often the room is checked while recording. */
export const CHECK_EVERY_MS = 30_000;
/**
 * Bytes a second assumed before a recording has measured its own: the voice at 48 kb/s
 * (6 KB/s) and the timeline's share while the pen draws, rounded up.
 */
export const ASSUMED_BYTES_PER_SECOND = 8_000;
/** A second, sharper warning when this few minutes are left. */
export const LAST_MINUTES = 2;
/** A recording's own rate is trusted after this much of it. */
const MEASURED_AFTER_MS = 20_000;

export interface Room {
  /** Bytes this site may still use, or null when the browser does not say. */
  freeBytes: number | null;
  /** Minutes of recording that fit at `bytesPerSecond`, or null when unknown. */
  minutes: number | null;
}

/** Room from an estimate, at a rate. Pure. */
export function roomOf(estimate: { usage?: number; quota?: number } | null, bytesPerSecond: number): Room {
  if (!estimate || !Number.isFinite(estimate.quota) || !Number.isFinite(estimate.usage)) return { freeBytes: null, minutes: null };
  const freeBytes = Math.max(0, estimate.quota! - estimate.usage!);
  return { freeBytes, minutes: freeBytes / Math.max(1, bytesPerSecond) / 60 };
}

/** The rate to plan with: the recording's own once it has run long enough (never under half the assumed one), else the assumed one. Pure. */
export function planningRate(bytes: number, durationMs: number): number {
  if (durationMs < MEASURED_AFTER_MS) return ASSUMED_BYTES_PER_SECOND;
  return Math.max(ASSUMED_BYTES_PER_SECOND / 2, bytes / (durationMs / 1000));
}

/**
 * Whether `minutes` left calls for a warning, given the threshold already warned at (Infinity
 * before any): LOW_MINUTES once, then LAST_MINUTES once; null when there is nothing new to say. Pure.
 */
export function lowRoomThreshold(minutes: number, warnedAt: number): number | null {
  const threshold = minutes < LAST_MINUTES ? LAST_MINUTES : minutes < LOW_MINUTES ? LOW_MINUTES : null;
  return threshold !== null && threshold < warnedAt ? threshold : null;
}

/** The browser's estimate, or null where it gives none. */
export async function estimateStorage(): Promise<{ usage?: number; quota?: number } | null> {
  try {
    return (await navigator.storage?.estimate?.()) ?? null;
  } catch {
    return null;
  }
}

/** Ask the browser to keep this site's storage (true when it will); false where it cannot say. */
export async function askPersistence(): Promise<boolean> {
  try {
    if (await navigator.storage?.persisted?.()) return true;
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}
