/**
 * The deck the browser tests present, built by code: five 16:9 slides drawn with pdf-lib,
 * speaker notes as `notes-slide-N.json` sidecars (one with hostile HTML that must be shown
 * inert), a WebM clip placed on slide 3 by a `media-slide-3-clip.json` sidecar, and a pdfpc
 * file giving a 20-minute talk. The clip itself is recorded by Chromium's MediaRecorder from
 * an animated canvas, so no binary fixture is committed.
 */
import { join } from "node:path";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { Page } from "playwright-core";
import { recordClip as recordClipOf } from "../fixtures/record-clip.ts";

export const OUTPUT = join(import.meta.dir, "..", "..", "test-output");

/** Where the clip sits on slide 3, in PDF points from the top-left of a 720×405 page. */
export const CLIP_RECT = { x_pt: 380, y_pt: 110, w_pt: 300, h_pt: 169 };

export const NOTES = {
  1: "Welcome everyone. **Introduce yourself** and the goal of the talk.",
  2: "Three points:\n\n- the venue Wi-Fi *will* drop\n- the deck must be local\n- rehearse the handoff\n\n<img src=x onerror=\"document.body.dataset.xss='1'\"><script>document.body.dataset.xss='1'</script>",
  4: "Ask for questions. Mention `deckhand check`.",
} as const;

/**
 * The 2-second clip the presentation deck plays on slide 3, with a duration and cues: WebKit
 * (GStreamer) cannot seek in MediaRecorder's raw output, and the live suite's WebKit viewer
 * follows the presenter's seeks.
 */
export function recordClip(page: Page): Promise<Uint8Array> {
  return recordClipOf(page, { name: "clip-cues.webm", seconds: 2, remux: true });
}

const SLIDES = [
  { title: "Presenting offline", body: ["How deckhand hands a deck to the browser", "and keeps the show going when the Wi-Fi drops."] },
  { title: "Why it matters", body: ["• Venue networks fail", "• Laptops get swapped minutes before a talk", "• A link should be all you need"] },
  { title: "It plays video", body: ["The clip on the right is an attachment", "of this PDF, placed by a media sidecar."] },
  { title: "Questions?", body: ["Thank you."] },
  { title: "Appendix", body: ["Backup slide."] },
];

export async function makePresentationDeck(clip: Uint8Array, options: { pages?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("Presenting offline");
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const count = options.pages ?? SLIDES.length;
  for (let i = 0; i < count; i++) {
    const slide = SLIDES[i] ?? { title: `Slide ${i + 1}`, body: ["Generated content"] };
    const page = doc.addPage([720, 405]);
    page.drawRectangle({ x: 0, y: 0, width: 720, height: 405, color: rgb(0.98, 0.98, 0.97) });
    page.drawRectangle({ x: 0, y: 395, width: 720, height: 10, color: rgb(0.06, 0.46, 0.43) });
    page.drawText(slide.title, { x: 48, y: 320, size: 36, font: bold, color: rgb(0.07, 0.09, 0.13) });
    slide.body.forEach((line, j) => page.drawText(line, { x: 48, y: 260 - j * 30, size: 18, font: regular, color: rgb(0.25, 0.28, 0.33) }));
    page.drawText(`${i + 1}`, { x: 680, y: 20, size: 12, font: regular, color: rgb(0.5, 0.5, 0.5) });
    if (i === 2) {
      // Where the clip will play: a frame the viewer sees if media fail.
      const { x_pt, y_pt, w_pt, h_pt } = CLIP_RECT;
      page.drawRectangle({ x: x_pt, y: 405 - y_pt - h_pt, width: w_pt, height: h_pt, color: rgb(0.85, 0.87, 0.9) });
    }
  }
  const attach = async (name: string, data: Uint8Array | string, mimeType: string) =>
    doc.attach(typeof data === "string" ? new TextEncoder().encode(data) : data, name, { mimeType });
  for (const [slide, notes] of Object.entries(NOTES)) {
    if (Number(slide) <= count) await attach(`notes-slide-${slide}.json`, JSON.stringify({ slide, notes }), "application/json");
  }
  if (count >= 3) {
    await attach("media-slide-3-clip.json", JSON.stringify({ kind: "file", slide: 3, id: "clip", mime: "video/webm", ...CLIP_RECT, autoplay: true, loop: true, filename: "media-clip.webm" }), "application/json");
    await attach("media-clip.webm", clip, "video/webm");
  }
  await attach("talk.pdfpc", JSON.stringify({ pdfpcFormat: 2, duration: 20, lastMinutes: 5, pages: [] }), "application/json");
  return doc.save();
}
