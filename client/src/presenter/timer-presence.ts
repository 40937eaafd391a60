/**
 * @module client/presenter/timer-presence
 * An open presenter window with a running timer says it is still there: it saves its progress
 * again every PRESENCE_BEAT_MS, and once more as it goes (page hidden or closed). The saved
 * record's `updatedAt` is then when a window was last seen, which lib/timer's restoreTimer
 * reads to tell a reload (the timer runs on) from a closed deck (the time is not counted).
 */
import { PRESENCE_BEAT_MS } from "../lib/timer.ts";

/** Start the heartbeat; `running` says whether there is a timer to keep, `save` writes the progress. */
export function keepPresence(running: () => boolean, save: () => void): () => void {
  const beat = () => {
    if (running()) save();
  };
  const interval = setInterval(beat, PRESENCE_BEAT_MS);
  // The last word before the window goes; a crash gets no such word and loses at most one beat.
  const leaving = () => {
    if (document.visibilityState === "hidden") beat();
  };
  window.addEventListener("pagehide", beat);
  document.addEventListener("visibilitychange", leaving);
  return () => {
    clearInterval(interval);
    window.removeEventListener("pagehide", beat);
    document.removeEventListener("visibilitychange", leaving);
  };
}
