/**
 * @module bench/lib/talk
 * A synthetic recorded talk for bench/export.ts: a deck of `slides` 16:9 pages that look like
 * slides (a title, five lines of text, a bar chart; an outline section every ten), and the
 * picture track a presenter records over `durationMs` — a slide change every
 * `durationMs / slides`, and `strokes` pen strokes spread evenly, each drawn over 1.5 s with
 * the presenter's overlay messages at 60 Hz (each carrying the stroke so far), then kept.
 */
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { AudienceState } from "../../client/src/presenter/audience.ts";
import type { Stroke } from "../../client/src/presenter/ink.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";
import { withOutline } from "../../test/fixtures/pdfs.ts";

export interface TalkShape {
  durationMs: number;
  slides: number;
  strokes: number;
}

export async function makeTalkDeck(slides: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= slides; i++) {
    const page = doc.addPage([720, 405]);
    page.drawRectangle({ x: 0, y: 0, width: 720, height: 405, color: rgb(0.98, 0.98, 0.97) });
    page.drawRectangle({ x: 0, y: 395, width: 720, height: 10, color: rgb(0.06, 0.46, 0.43) });
    page.drawText(`Slide ${i}: a title of a typical length`, { x: 40, y: 340, size: 28, font: bold, color: rgb(0.07, 0.09, 0.13) });
    for (let line = 0; line < 5; line++) page.drawText(`• Point ${line + 1} of slide ${i}, with enough words to fill a line`, { x: 48, y: 280 - line * 30, size: 16, font, color: rgb(0.25, 0.28, 0.33) });
    for (let bar = 0; bar < 6; bar++) page.drawRectangle({ x: 480 + bar * 36, y: 60, width: 26, height: 30 + ((i * 37 + bar * 53) % 150), color: rgb(0.1 + bar * 0.12, 0.4, 0.7 - bar * 0.08) });
  }
  // A section every ten slides, as a Beamer deck's outline.
  const outline = Array.from({ length: Math.ceil(slides / 10) }, (_, k) => ({ title: `Section ${k + 1}`, page: k * 10 + 1 }));
  return withOutline(new Uint8Array(await doc.save()), outline);
}

const state = (page: number, extra: Partial<AudienceState> = {}): AudienceState => ({ page, blank: "none", mode: "pen", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false, ...extra });

/** The talk's picture track, as the presenter records it. */
export function talkEvents({ durationMs, slides, strokes }: TalkShape): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const slideMs = durationMs / slides;
  const strokeEvery = durationMs / Math.max(1, strokes);
  const pageAt = (t: number) => Math.min(slides, Math.floor(t / slideMs) + 1);
  let nextStroke = strokeEvery / 2;
  for (let slide = 1; slide <= slides; slide++) {
    const from = (slide - 1) * slideMs;
    events.push({ t: from, m: { type: "state", state: state(slide) } });
    let ink: Stroke[] = [];
    while (nextStroke < from + slideMs && pageAt(nextStroke) === slide) {
      // A stroke drawn over 1.5 s at 60 Hz: each overlay message carries the stroke so far.
      let points: number[] = [];
      const id = `s${Math.round(nextStroke)}`;
      const y0 = 80 + ((nextStroke / 1000) % 240);
      for (let i = 0; i < 90; i++) {
        points = [...points, 100 + i * 5, Math.round((y0 + 20 * Math.sin(i / 8)) * 10) / 10, 0.5];
        events.push({ t: nextStroke + i * (1000 / 60), m: { type: "overlay", overlays: { ...NO_OVERLAYS, live: { id, color: "#e11d48", width: 4, points } }, at: 0 } });
      }
      ink = [...ink, { id, color: "#e11d48", width: 4, points }];
      events.push({ t: nextStroke + 1550, m: { type: "state", state: state(slide, { ink }) } });
      nextStroke += strokeEvery;
    }
  }
  return events;
}
