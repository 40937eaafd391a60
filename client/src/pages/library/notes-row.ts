/**
 * @module client/pages/library/notes-row
 * A library card's notes row, markup only: which notes file (`.pdfpc` or PowerPoint `.pptx`)
 * the deck has, what reading the last one found (each finding with its level and code), and
 * the buttons to add, replace or remove it — what they do is the library page's. The
 * sentence for what happened to a notes file is shared with the share screen.
 */
import { h } from "../../lib/dom.ts";
import type { NotesCheck } from "../../lib/local-deck.ts";
import type { DeckRecord } from "../../storage/deck-store.ts";

export function findingList(check: NotesCheck): HTMLUListElement | null {
  if (!check.findings.length) return null;
  return h(
    "ul",
    { class: "notes-findings" },
    ...check.findings.map((f) => h("li", { class: `notes-finding notes-finding-${f.level}`, "data-code": f.code }, h("strong", {}, f.level === "error" ? "Error: " : "Warning: "), f.message)),
  );
}

const notesOn = (check: NotesCheck) => `notes on ${check.notedSlides} slide${check.notedSlides === 1 ? "" : "s"}`;

/** A plain sentence for what happened to a notes file, for the card and the share screen. */
export function notesOutcome(check: NotesCheck, where: "card" | "share"): string {
  if (!check.notes) return `“${check.filename}” was not added:`;
  return where === "card" ? `Added: ${notesOn(check)}.` : `With the notes from “${check.filename}” (${notesOn(check)}), kept with the deck.`;
}

/** What the card's buttons do: read a notes file picked for the deck; remove the deck's notes file (asking first). */
export interface NotesRowActions {
  add: (file: File) => void;
  remove: () => void;
}

/** The card's notes row: which notes file the deck has, what reading the last one (`check`) found, add/replace/remove. */
export function notesRow(deck: DeckRecord, check: NotesCheck | undefined, on: NotesRowActions): HTMLElement {
  const input = h("input", {
    type: "file",
    class: "visually-hidden",
    "data-notes-input": "",
    accept: ".pdfpc,.pptx,application/json,application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "aria-label": `Notes file (.pdfpc or .pptx) for ${deck.title}`,
    tabindex: "-1",
  }) as HTMLInputElement;
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.value = "";
    if (file) on.add(file);
  });
  const add = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-notes-add": "", "aria-label": deck.notes ? `Replace the notes file of ${deck.title}` : `Add notes to ${deck.title}` }, deck.notes ? "Replace…" : "Add notes…");
  add.addEventListener("click", () => input.click());
  const buttons: HTMLElement[] = [add];
  if (deck.notes) {
    const remove = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-notes-remove": "", "aria-label": `Remove the notes file of ${deck.title}` }, "Remove");
    remove.addEventListener("click", () => on.remove());
    buttons.push(remove);
  }
  const line = deck.notes
    ? h("p", { class: "deck-notes-line" }, "Notes: ", h("span", { class: "deck-notes-file" }, deck.notes.filename), deck.notes.kind === "pptx" ? " · PowerPoint" : "")
    : h("p", { class: "deck-notes-line muted" }, "No notes file");
  return h(
    "div",
    { class: "deck-notes", "data-notes": deck.notes?.kind ?? "none" },
    line,
    check ? h("p", { class: check.notes ? "deck-notes-outcome" : "deck-notes-outcome deck-notes-refused", role: "status" }, notesOutcome(check, "card")) : null,
    check ? findingList(check) : null,
    h("div", { class: "deck-notes-actions" }, ...buttons, input),
  );
}
