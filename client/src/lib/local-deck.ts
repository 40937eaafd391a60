/**
 * @module client/lib/local-deck
 * Open a PDF from this computer without uploading it: check the header, count its pages
 * with the render worker, and store it like a claimed deck. A notes file beside it (a
 * `.pdfpc`, or a PowerPoint `.pptx` whose notes slides hold the notes) may come in the same
 * drop or pick, or be added later to a stored deck: it is read here in the browser with the
 * deck layer's readNotesFile, judged by its findings, and kept as normalised `.pdfpc` text.
 */
import { REFUSAL_DETAIL, type RefusalCode } from "../../../src/deck/accept.ts";
import type { NotesFileResult } from "../../../src/deck/notes-file/types.ts";
import type { DeckNotes, DeckRecord, DeckStore } from "../storage/deck-store.ts";
import { RenderError, Renderer } from "./renderer.ts";
import { sha256Hex } from "./sha256.ts";
import { storeThumbnail } from "./thumbnail.ts";

/** PDF readers accept the `%PDF-` marker anywhere in the first 1024 bytes. */
export function looksLikePdf(head: Uint8Array): boolean {
  const text = new TextDecoder("latin1").decode(head.subarray(0, 1024));
  return text.includes("%PDF-");
}

export function titleFromFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const stripped = base.replace(/\.pdf$/i, "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return stripped || "presentation";
}

export class LocalDeckError extends Error {
  /** The shared refusal code (PDF_ENCRYPTED, …) when the rule refused the file. */
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

/** A finding about a notes file, as the library shows it (the deck layer's, or the library's own). */
export interface NotesFinding {
  level: "error" | "warning";
  code: string;
  message: string;
  slide?: number;
}

/** What the library made of a notes file: the notes to keep (null: refused) and why. */
export interface NotesCheck {
  filename: string;
  kind: DeckNotes["kind"] | null;
  /** The notes to store, or null when the file was refused (an error finding says why). */
  notes: DeckNotes | null;
  findings: NotesFinding[];
  /** Slides the file names (pptx: in the presentation; pdfpc: pages it names). */
  slideCount: number | null;
  /** Slides it gives notes for. */
  notedSlides: number;
}

/** A name as a notes file would be called (`.pdfpc`, `.pptx`, any case). */
export function isNotesFileName(name: string): boolean {
  return /\.(pdfpc|pptx)$/i.test(name);
}

/** A notes file's name to show and keep: path parts and control characters removed, never empty. */
export function notesFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/[\u0000-\u001f\u007f]/g, "").trim() || "notes";
}

/**
 * Judge readNotesFile's result: a file with any error finding (or nothing usable) is refused
 * with its sentences, so a broken file never half-replaces notes; warnings (a slide count
 * that differs from the deck's, a hidden slide, …) are shown and the notes kept.
 */
export function judgeNotesFile(result: NotesFileResult): NotesCheck {
  const findings: NotesFinding[] = result.issues.map((issue) => {
    const finding: NotesFinding = { level: issue.level, code: issue.code, message: issue.message };
    if (issue.slide !== undefined) finding.slide = issue.slide;
    return finding;
  });
  const filename = notesFilename(result.filename);
  const refused = !result.kind || result.pdfpc === null || findings.some((f) => f.level === "error");
  if ((!result.kind || result.pdfpc === null) && !findings.some((f) => f.level === "error")) {
    // The deck layer always says why; this sentence is only for a result that did not.
    findings.unshift({ level: "error", code: "NOTES_FILE_UNRECOGNIZED", message: `${filename} is neither a .pdfpc file nor a PowerPoint .pptx with notes; choose the notes file that belongs to this PDF.` });
  }
  return {
    filename,
    kind: result.kind,
    notes: refused ? null : { filename, kind: result.kind!, pdfpc: result.pdfpc! },
    findings,
    slideCount: result.slideCount,
    notedSlides: result.notes.size,
  };
}

/**
 * Read a notes file for a deck of `pageCount` pages, in this tab (the deck layer's reader is
 * bounded: zip bombs, oversized XML parts and DTDs are findings, not hangs). Loaded on first
 * use: the library's own script stays small for the many visits that bring no notes file.
 */
export async function checkNotesFile(file: File, pageCount: number): Promise<NotesCheck> {
  const filename = notesFilename(file.name);
  const { MAX_NOTES_FILE_BYTES, readNotesFile } = await import("../../../src/deck/notes-file/index.ts");
  // The reader's own cap, judged on the size before the bytes are read into this tab.
  if (file.size > MAX_NOTES_FILE_BYTES) {
    return {
      filename,
      kind: null,
      notes: null,
      slideCount: null,
      notedSlides: 0,
      findings: [{ level: "error", code: "NOTES_FILE_TOO_LARGE", message: `“${filename}” is larger than ${MAX_NOTES_FILE_BYTES / 1024 / 1024} MiB. Save a copy of the presentation without its pictures and videos (only its notes are read), or use a .pdfpc file.` }],
    };
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  return judgeNotesFile(readNotesFile(bytes, filename, pageCount));
}

/**
 * Sort what was dropped or picked together: the PDF (judged by its bytes, not its name) and
 * a notes file beside it. Anything more is returned as `extra` for the library to mention.
 */
export async function sortDroppedFiles(files: readonly File[]): Promise<{ pdf: File | null; notes: File | null; extra: File[] }> {
  let pdf: File | null = null;
  const others: File[] = [];
  for (const file of files) {
    const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
    if (!pdf && looksLikePdf(head)) pdf = file;
    else others.push(file);
  }
  // A file named like notes wins; else the one other file is tried as notes (the reader sniffs
  // the bytes and says plainly when they are not notes).
  const named = others.find((f) => isNotesFileName(f.name));
  const notes = named ?? (others.length === 1 && pdf ? others[0]! : null);
  return { pdf, notes, extra: others.filter((f) => f !== notes) };
}

/** Check a notes file for a stored deck and keep it when it is accepted (replacing any). */
export async function addNotesToDeck(file: File, deck: DeckRecord, store: DeckStore): Promise<NotesCheck> {
  const check = await checkNotesFile(file, deck.totalSlides);
  if (check.notes && !(await store.setDeckNotes(deck.id, check.notes))) {
    throw new LocalDeckError(`“${deck.title}” is no longer stored in this browser.`);
  }
  return check;
}

/**
 * Open a local PDF and store it — with its notes file, when one came beside it and was
 * accepted, in the same transaction as the bytes. A refused notes file does not stop the
 * deck: the check says why, and the notes can be added later.
 */
export async function importLocalPdf(file: File, store: DeckStore, notesFile?: File | null): Promise<{ deck: DeckRecord; notes: NotesCheck | null }> {
  const data = await file.arrayBuffer();
  if (!looksLikePdf(new Uint8Array(data, 0, Math.min(1024, data.byteLength)))) {
    throw new LocalDeckError(`“${file.name}” is not a PDF. Export the deck as PDF and open that file.`);
  }
  const renderer = new Renderer();
  try {
    let opened;
    try {
      opened = await renderer.open(data);
    } catch (error) {
      // The worker judges the deck by the server's own rule (src/deck/accept.ts): a file the
      // server would refuse with PDF_ENCRYPTED is refused here with the same sentence.
      const code = error instanceof RenderError ? error.code : undefined;
      const detail = code && code in REFUSAL_DETAIL ? REFUSAL_DETAIL[code as RefusalCode] : "It may be damaged; export the deck as PDF again.";
      throw new LocalDeckError(`“${file.name}” cannot be presented. ${detail}`, code);
    }
    const filename = titleFromFilename(file.name);
    const notes = notesFile ? await checkNotesFile(notesFile, opened.pageCount) : null;
    // A .pdfpc beside the PDF may group the slides (its forced overlays): read the labels with it.
    if (notes?.notes?.kind === "pdfpc") opened = await renderer.open(data, { notesFile: notes.notes.pdfpc });
    const deck = await store.putDeck({
      title: opened.title || filename,
      filename,
      totalSlides: opened.pageCount,
      sha256: await sha256Hex(data),
      source: "local",
      data,
      ...(notes?.notes ? { notes: notes.notes } : {}),
    });
    await store.setDeckLayout(deck.id, { pageSize: opened.firstPage, labels: opened.labels });
    // The deck is open in the worker already: its library thumbnail costs one small render.
    // A failure here only leaves the placeholder, which the library fills in later.
    await storeThumbnail(renderer, store, deck.id).catch((error: unknown) => console.warn("thumbnail", error));
    // With its labels: the library says "N pages · M slides" of it at once (lib/deck-size).
    return { deck: { ...deck, pageSize: opened.firstPage, labels: opened.labels }, notes };
  } finally {
    renderer.terminate();
  }
}
