/**
 * @module client/record/recording-list-view
 * A deck's recordings on its library card: each with what it is (a talk or a rehearsal, when),
 * its length and size, whether it was interrupted or is being recorded right now, and Play
 * (the player, /play/{id}) and Delete. `actions` adds buttons of other parts to each row (the
 * export's Save video and Save audio). Markup only; the library owns the behaviour.
 */
import { h } from "../lib/dom.ts";
import { formatBytes, formatClock, formatDate } from "../lib/format.ts";
import type { RecordingRecord } from "../storage/schema.ts";

export interface RecordingListHandlers {
  delete(record: RecordingRecord): void;
  /** More buttons for a recording's row (Save video, Save audio…), after Play. */
  actions?(record: RecordingRecord): (HTMLElement | null)[];
  /** Whether a window is writing this recording now (it cannot be played or deleted meanwhile). */
  recordingNow(record: RecordingRecord): boolean;
}

/** "12:34 · 3.2 MB · interrupted" */
function meta(record: RecordingRecord, now: boolean): string {
  const parts = [formatClock(record.durationMs / 1000), formatBytes(record.bytes)];
  if (now) parts.push("recording now");
  else if (record.state !== "stopped") parts.push("interrupted");
  if (!record.audio) parts.push("no sound");
  return parts.join(" · ");
}

function row(record: RecordingRecord, on: RecordingListHandlers): HTMLLIElement {
  const now = on.recordingNow(record);
  const kind = record.kind === "talk" ? "Talk" : "Rehearsal";
  const del = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-recording-delete": record.id, "aria-label": `Delete the recording ${record.title}`, disabled: now }, "Delete");
  del.addEventListener("click", () => on.delete(record));
  return h(
    "li",
    { class: "deck-recording", "data-recording": record.id, "data-state": now ? "recording" : record.state },
    h("p", { class: "deck-recording-title" }, h("span", { class: "deck-recording-kind" }, kind), " · ", formatDate(record.createdAt)),
    h("p", { class: "deck-recording-meta muted", "data-duration-ms": record.durationMs, "data-bytes": record.bytes }, meta(record, now)),
    h(
      "div",
      { class: "deck-recording-actions" },
      now ? null : h("a", { class: "btn btn-small", href: `/play/${encodeURIComponent(record.id)}`, "data-recording-play": record.id, "aria-label": `Play ${record.title}` }, "Play"),
      ...(now ? [] : (on.actions?.(record) ?? [])),
      del,
    ),
  );
}

/** The card's recordings section, or null when the deck has none. */
export function recordingList(recordings: readonly RecordingRecord[], on: RecordingListHandlers): HTMLElement | null {
  if (!recordings.length) return null;
  return h("section", { class: "deck-recordings", "aria-label": "Recordings" }, h("h3", { class: "label" }, recordings.length === 1 ? "1 recording" : `${recordings.length} recordings`), h("ul", { class: "deck-recording-list" }, ...recordings.map((r) => row(r, on))));
}
