/**
 * @module client/export/library-recording
 * A recording under its deck's card in the library, with *Save video* and *Save audio*
 * (./export-panel.ts), and the deck read from this browser's storage for the export. The
 * library's own list of recordings mounts the same panel for each stored recording; this
 * entry point takes a recording handed to it whole (the library's `__deckhand.exportRecording`),
 * which is how the end-to-end tests export a recording they made without storing it.
 */
import { formatClock } from "../lib/format.ts";
import { h } from "../lib/dom.ts";
import type { DeckStore } from "../storage/deck-store.ts";
import { mountExportPanel, pickWithDialog, type ExportDeck, type ExportPanel, type ExportPanelOptions, type PickFile } from "./export-panel.ts";
import { givenRecording, type StoredPiece, type StoredRecording } from "./recording-source.ts";

/** The deck of a recording as the export needs it: a fresh copy of its bytes, its notes layout and notes file. */
export async function exportDeck(store: DeckStore, deckId: string): Promise<ExportDeck | null> {
  const found = await store.getDeckWithBytes(deckId);
  if (!found) return null;
  const { deck, bytes } = found;
  return { bytes, ...(deck.notesPosition ? { notesPosition: deck.notesPosition } : {}), ...(typeof deck.notes?.pdfpc === "string" ? { notesFile: deck.notes.pdfpc } : {}) };
}

export interface RecordingInput {
  record: StoredRecording;
  pieces: StoredPiece[];
  /**
   * Where files go: the browser's save dialog (the default), a download, or a file in the
   * origin's private file system (a test's stand-in for a picked file: the same writable API).
   */
  save?: "dialog" | "download" | "private-file";
}

export const PICKERS: Record<NonNullable<RecordingInput["save"]>, PickFile> = {
  dialog: pickWithDialog,
  download: async () => null,
  "private-file": async (name) => (await navigator.storage.getDirectory()).getFileHandle(name, { create: true }),
};

/** Show `input` under its deck's card in `list`; null when the deck is not listed. */
export function showRecording(list: HTMLElement, input: RecordingInput, store: DeckStore, onSaved: ExportPanelOptions["onSaved"]): ExportPanel | null {
  const card = list.querySelector<HTMLElement>(`li[data-deck="${CSS.escape(input.record.deckId)}"]`);
  if (!card) return null;
  const row = h(
    "div",
    { class: "deck-recording", "data-recording": input.record.id },
    h("p", { class: "deck-recording-line" }, "Recording: ", h("span", { class: "deck-recording-title" }, input.record.title), ` · ${formatClock(input.record.durationMs / 1000)}`),
  );
  card.append(row);
  return mountExportPanel(row, {
    recording: givenRecording(input.record, async () => input.pieces),
    deck: () => exportDeck(store, input.record.deckId),
    pickFile: PICKERS[input.save ?? "dialog"],
    ...(onSaved ? { onSaved } : {}),
  });
}
