/**
 * @module client/presenter/page/downloads
 * The export panel's downloads: the deck as it came, or with the ink written into the PDF.
 */
import { $, replace } from "../../lib/dom.ts";
import { downloadDeck, exportName, inkForExport } from "../export.ts";
import { presenter } from "./presenter.ts";
import { session } from "./session.ts";

export async function exportDeck(withInk: boolean) {
  const status = $("#export-status");
  replace(status, withInk ? "Writing the ink into the PDF…" : "");
  try {
    const found = await session.store.getDeckWithBytes(session.deck.id);
    if (!found) throw new Error("gone");
    await downloadDeck({ bytes: found.bytes, title: session.deck.title, ink: inkForExport(presenter.current.ink), withInk, renderer: session.renderer, notesPosition: presenter.current.notesPosition ?? undefined });
    replace(status, withInk && !inkForExport(presenter.current.ink).length ? `No ink yet: saved “${exportName(session.deck.title, false)}” as it came.` : "Saved to your downloads.");
  } catch {
    replace(status, "The PDF could not be written. Try again, or download it as it came.");
  }
}
