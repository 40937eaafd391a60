/**
 * @module client/worker/fallback-extras
 * A minimal reader of notes and media sidecars from the document's EmbeddedFiles, used until
 * the shared sidecar reader (src/sidecar) is available to the client. It understands string
 * notes in `notes-slide-N.json`, `media-slide-N-ID.json` records and pdfpc durations, and
 * ignores anything it does not understand (the checker reports problems, not the presenter).
 */
import type { DeckExtras, MediaKind, SlideMedia } from "../../../src/sidecar/types.ts";

type Mupdf = typeof import("mupdf");
type PdfDoc = InstanceType<Mupdf["PDFDocument"]>;

function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? name;
}

function listEmbedded(doc: PdfDoc): Map<string, ReturnType<PdfDoc["getEmbeddedFiles"]>[string]> {
  const out = new Map<string, ReturnType<PdfDoc["getEmbeddedFiles"]>[string]>();
  try {
    for (const [name, spec] of Object.entries(doc.getEmbeddedFiles())) out.set(baseName(name), spec);
  } catch {
    // Hostile or missing name trees: no sidecars.
  }
  return out;
}

function readText(doc: PdfDoc, spec: ReturnType<PdfDoc["getEmbeddedFiles"]>[string]): string | null {
  try {
    const buffer = doc.getEmbeddedFileContents(spec);
    return buffer ? new TextDecoder("utf-8", { fatal: true }).decode(buffer.asUint8Array()) : null;
  } catch {
    return null;
  }
}

export function readFallbackExtras(doc: PdfDoc, pageCount: number): DeckExtras {
  const extras: DeckExtras = { notes: {}, notesSource: {}, media: [], timer: {} };
  const files = listEmbedded(doc);
  for (const [name, spec] of files) {
    let m = /^notes-slide-(\d+)\.json$/i.exec(name);
    if (m) {
      const slide = Number(m[1]);
      const text = readText(doc, spec);
      if (!text || slide < 1 || slide > pageCount) continue;
      try {
        const json = JSON.parse(text) as { notes?: unknown };
        const notes = Array.isArray(json.notes) ? json.notes.filter((n) => typeof n === "string").join("\n\n") : json.notes;
        if (typeof notes === "string") {
          extras.notes[slide] = notes;
          extras.notesSource[slide] = "notes-sidecar";
        }
      } catch {}
      continue;
    }
    m = /^media-slide-(\d+)-(.+)\.json$/i.exec(name);
    if (m) {
      const text = readText(doc, spec);
      if (!text) continue;
      try {
        const j = JSON.parse(text) as Record<string, unknown>;
        const slide = Number(j.slide ?? m[1]);
        const kind = (typeof j.kind === "string" ? j.kind : "file") as MediaKind;
        const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : NaN);
        const rect = { x: num(j.x_pt), y: num(j.y_pt), w: num(j.w_pt), h: num(j.h_pt) };
        if (![rect.x, rect.y, rect.w, rect.h].every(Number.isFinite) || rect.w <= 0 || rect.h <= 0) continue;
        const media: SlideMedia = {
          id: String(j.id ?? m[2]),
          kind,
          slide,
          rect,
          mime: typeof j.mime === "string" ? j.mime : null,
          autoplay: j.autoplay !== false,
          loop: j.loop !== false,
        };
        if (kind === "file" && typeof j.filename === "string") media.attachment = baseName(j.filename);
        if (typeof j.url === "string") media.url = j.url;
        if (typeof j.video_id === "string") media.videoId = j.video_id;
        extras.media.push(media);
      } catch {}
      continue;
    }
    if (/\.pdfpc$/i.test(name)) {
      const text = readText(doc, spec);
      try {
        const j = JSON.parse(text ?? "") as Record<string, unknown>;
        if (typeof j.duration === "number" && j.duration > 0) extras.timer.durationMinutes = j.duration;
        if (typeof j.endTime === "string") extras.timer.endTime = j.endTime;
        if (typeof j.lastMinutes === "number") extras.timer.lastMinutes = j.lastMinutes;
        const pages = Array.isArray(j.pages) ? (j.pages as Array<Record<string, unknown>>) : [];
        for (const p of pages) {
          const slide = Number(p.idx) + 1;
          if (typeof p.note === "string" && p.note && !extras.notes[slide]) {
            extras.notes[slide] = p.note;
            extras.notesSource[slide] = "pdfpc";
          }
        }
      } catch {}
    }
  }
  return extras;
}

export function readFallbackAttachment(doc: PdfDoc, name: string): Uint8Array | null {
  const spec = listEmbedded(doc).get(baseName(name));
  if (!spec) return null;
  try {
    return doc.getEmbeddedFileContents(spec)?.asUint8Array().slice() ?? null;
  } catch {
    return null;
  }
}
