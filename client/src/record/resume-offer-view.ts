/**
 * @module client/record/resume-offer-view
 * After a reload, a crash or a closed tab: the offer, above the presenter's stage, to continue
 * a recording that was interrupted or to keep it as it is — with how much of it was kept.
 * Presenter window only.
 */
import { h } from "../lib/dom.ts";
import { formatClock } from "../lib/format.ts";
import type { RecordingRecord } from "../storage/schema.ts";

export interface OfferHandlers {
  continue(record: RecordingRecord): void;
  keep(record: RecordingRecord): void;
}

export function resumeOffer(record: RecordingRecord, on: OfferHandlers): HTMLElement {
  const what = record.kind === "talk" ? "A recording of this talk" : "A recording of a rehearsal";
  return h(
    "div",
    { class: "notice notice-warn record-offer", role: "status", id: `record-offer-${record.id}`, "data-recording": record.id },
    h("span", {}, `${what} was interrupted (a reload, a crash or a closed window). ${formatClock(record.durationMs / 1000)} of it is kept.`),
    h("button", { type: "button", class: "btn btn-small btn-primary", "data-offer": "continue", onclick: () => on.continue(record) }, "Continue recording"),
    h("button", { type: "button", class: "btn btn-small", "data-offer": "keep", onclick: () => on.keep(record) }, "Keep it as it is"),
  );
}
