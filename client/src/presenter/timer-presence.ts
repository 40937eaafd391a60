/**
 * @module client/presenter/timer-presence
 * An open presenter window with a running timer says it is still there: it saves its progress
 * again every PRESENCE_BEAT_MS, and once more as it goes (page hidden or closed — Chromium
 * finishes that write; Firefox and WebKit drop a write a closing window starts, so there the
 * last beat stands, at most PRESENCE_BEAT_MS early). The saved record's `updatedAt` is then
 * when a window was last seen, which lib/timer's restoreTimer reads to tell a reload (the
 * timer runs on) from a closed deck (the time is not counted).
 */
import { PRESENCE_BEAT_MS } from "../lib/timer.ts";

/** Start the heartbeat; `running` says whether there is a timer to keep, `save` writes the progress. */
export function keepPresence(running: () => boolean, save: () => void): () => void {
  const beat = () => {
    if (running()) save();
  };
  const interval = setInterval(beat, PRESENCE_BEAT_MS);
  // The last word before the window goes, where the browser finishes it; a crash, or a browser
  // that drops it, loses at most one beat.
  // Not when the page goes into the back-forward cache (`persisted`): WebKit freezes it with the
  // write still open, and the next page's reads of the same store wait behind it for good (the
  // next deck's presenter in that tab never opened). A cached page that comes back beats again.
  const leaving = (event: PageTransitionEvent) => {
    if (!event.persisted) beat();
  };
  window.addEventListener("pagehide", leaving);
  return () => {
    clearInterval(interval);
    window.removeEventListener("pagehide", leaving);
  };
}
