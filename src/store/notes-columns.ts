/**
 * @module store/notes-columns
 * The notes file a row describes (a staged handoff's, a live talk's: core/sessions
 * `SessionNotes`) as the four columns both tables keep it in, on SQLite and PostgreSQL alike:
 * what it was (`notes_filename`, `notes_kind`, `notes_slides`) and its normalised `.pdfpc`
 * text (`notes_pdfpc`), which every read of a row but the notes route's leaves out.
 */
import type { SessionNotes } from "../core/sessions.ts";

/** The description columns as a row read returns them. */
export interface NotesRaw {
  notes_filename: string | null;
  notes_kind: SessionNotes["kind"] | null;
  notes_slides: number | null;
}

/** The description a row's columns give; null when the row has no notes. */
export function notesFromRaw(r: NotesRaw): SessionNotes | null {
  return r.notes_filename !== null && r.notes_kind !== null ? { filename: r.notes_filename, kind: r.notes_kind, slides: r.notes_slides ?? 0 } : null;
}

/** The four columns' values for an insert. */
export function notesParams(notes: SessionNotes | null, notesText: string | null) {
  return {
    notesFilename: notes?.filename ?? null,
    notesKind: notes?.kind ?? null,
    notesSlides: notes?.slides ?? null,
    // Text without a description of it would never be handed out: stored only with one.
    notesPdfpc: notes ? notesText : null,
  };
}
