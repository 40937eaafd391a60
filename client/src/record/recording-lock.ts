/**
 * @module client/record/recording-lock
 * Which recordings a window is writing right now, across the browser's windows: a window
 * holds a Web Lock named after the recording while it records it, and lets go when it stops
 * or dies (a crash, a reload, a closed tab — the browser releases it). A recording whose
 * record says "recording" and whose lock nobody holds was interrupted; one whose lock is held
 * is being recorded in another window and is left alone. Without Web Locks, a record not
 * written for a while counts as interrupted.
 */

const PREFIX = "deckhand:recording:";
/** Without Web Locks: a recording not written for this long is no longer being written. */
const STALE_MS = 10_000;

/** Hold the lock of recording `id` until the returned function is called. */
export function holdRecordingLock(id: string): () => void {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  void navigator.locks?.request(PREFIX + id, () => held).catch(() => {});
  return release;
}

/** The ids of recordings some window of this browser is writing now; null without Web Locks. */
export async function recordingsInProgress(): Promise<Set<string> | null> {
  if (!navigator.locks?.query) return null;
  try {
    const { held = [] } = await navigator.locks.query();
    return new Set(held.map((l) => l.name ?? "").filter((n) => n.startsWith(PREFIX)).map((n) => n.slice(PREFIX.length)));
  } catch {
    return null;
  }
}

/** Whether a recording whose record says "recording" is still being written by someone. Pure. */
export function stillRecording(record: { id: string; state: string; updatedAt: number }, inProgress: Set<string> | null, now: number): boolean {
  if (record.state !== "recording") return false;
  return inProgress ? inProgress.has(record.id) : now - record.updatedAt < STALE_MS;
}
