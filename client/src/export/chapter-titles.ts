/**
 * @module client/export/chapter-titles
 * The exported file's chapters: one per slide span of the recording (client/record/timeline),
 * titled by the PDF outline's entry for that slide — the deepest entry that opens one of the
 * slide's pages (a subsection's title rather than its section's), the first of equals — else
 * "Slide <label>", the name the presenter's counter gives it. Times are whole milliseconds,
 * rounded up as the video's frames are (client/export/frame-schedule), so each chapter starts
 * on its slide's keyframe. Pure.
 */
import type { OutlineEntry } from "../../../src/deck/outline.ts";
import type { DeckLayout } from "../model/deck-layout.ts";
import { chapters, slideSpans, type Chapter, type SlideSpan, type TimelineEvent } from "../record/timeline.ts";

/** The title of slide `index`: its outline entry, else "Slide <label>". */
export function slideTitle(layout: DeckLayout, outline: readonly OutlineEntry[], index: number): string {
  const slide = layout.slides[index];
  if (!slide) return `Slide ${index + 1}`;
  let best: OutlineEntry | null = null;
  for (const entry of outline) if (entry.page >= slide.first && entry.page <= slide.last && (!best || entry.depth > best.depth)) best = entry;
  return best?.title ?? `Slide ${slide.label}`;
}

/** The chapters of a recording of `durationMs`: one per slide span, titled. */
export function recordingChapters(events: Iterable<TimelineEvent>, layout: DeckLayout, outline: readonly OutlineEntry[], durationMs: number): Chapter[] {
  const spans = slideSpans(events, layout, durationMs).map((s): SlideSpan => ({ ...s, startMs: Math.ceil(s.startMs), endMs: Math.ceil(s.endMs) }));
  return chapters(spans, (span) => slideTitle(layout, outline, span.slide)).filter((c) => c.endMs > c.startMs);
}
