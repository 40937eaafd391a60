/**
 * Notes files beside a PDF as the API tests send them: `.pdfpc` documents, and
 * PowerPoint `.pptx` files from the deck layer's fixture builder (test/fixtures/pptx.ts: a zip
 * of the minimal OOXML parts, made with fflate), good and hostile; and the upload that carries
 * one beside a PDF (present, check, go live).
 */
import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { buildPptx, pptxManySlides, pptxWithEntities, pptxZipBomb } from "../fixtures/pptx.ts";
import { type TestApp, withDeclaredLength } from "../helpers/app.ts";

const enc = new TextEncoder();

/** A .pdfpc document (format 2) with `notes` by 1-based slide. */
export function pdfpcFile(notes: Record<number, string>, extra: Record<string, unknown> = {}): Uint8Array {
  const pages = Object.entries(notes).map(([slide, note]) => ({ idx: Number(slide) - 1, label: slide, overlay: 0, forcedOverlay: false, hidden: false, note }));
  return enc.encode(JSON.stringify({ pdfpcFormat: 2, disableMarkdown: false, noteFontSize: 20, pages, ...extra }));
}

/** A .pptx whose slides, in order, have these notes (null: a slide without a notes slide). */
export function pptxFile(options: { slides: Array<string | null> }): Uint8Array {
  return buildPptx(options.slides.map((notes) => ({ notes: notes === null ? null : [notes] })));
}

/** A notes slide whose XML declares entities that expand (billion laughs). */
export const billionLaughsPptx = (): Uint8Array => pptxWithEntities();

/** A notes slide that inflates from a few KB to `megabytes` MiB: a zip bomb. */
export const zipBombPptx = (megabytes = 24): Uint8Array => pptxZipBomb(megabytes);

/** A presentation with `count` notes slides (and as many slides), stored, made once per count. */
export const manySlidesPptx = (count = 10_000): Uint8Array => pptxManySlides(count);

/** A zip that is not a presentation (a word-processing document's parts). */
export function notAPptxZip(): Uint8Array {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  return zipSync({
    "[Content_Types].xml": enc.encode(`${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
    "word/document.xml": enc.encode(`${head}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`),
  });
}

/** A notes part as a test sends it. */
export interface Part {
  bytes: Uint8Array | string;
  filename: string;
  type?: string;
}

/** POST a multipart body with a `file` part and, when given, a `notes` part (first when `notesFirst`). */
export async function sendWithNotes(
  app: TestApp,
  path: string,
  pdf: Uint8Array,
  notes: Part | null,
  options: { declared?: boolean; notesFirst?: boolean; filename?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const form = new FormData();
  const addNotes = () => {
    if (notes) form.append("notes", new Blob([notes.bytes as BlobPart], { type: notes.type ?? "application/octet-stream" }), notes.filename);
  };
  if (options.notesFirst) addNotes();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), options.filename ?? "deck.pdf");
  if (!options.notesFirst) addNotes();
  const init: RequestInit = { method: "POST", body: form, headers: options.headers ?? {} };
  return app.handle(path, options.declared ? await withDeclaredLength(init) : init);
}

/** Rows of `table` (all of them): a refused upload writes none. */
export function rowCount(app: TestApp, table: "sessions" | "live_sessions"): number {
  const db = new Database(join(app.dataDir, "deckhand.db"), { readonly: true });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Nothing but these decks (by blob id) in the data dir's staged/: no temp file of either part. */
export async function expectOnlyDecks(app: TestApp, ids: string[]) {
  expect(readdirSync(join(app.dataDir, "staged")).sort()).toEqual(ids.map((id) => `${id}.pdf`).sort());
  expect((await app.deps.handoff.sweep()).removedTemps).toBe(0);
}
