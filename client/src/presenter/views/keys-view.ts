/**
 * @module client/presenter/views/keys-view
 * The `?` panel: the live key map (the user's own, or the defaults), one row per action,
 * and its editor — add a key by pressing it, remove one, reset everything. A key that
 * already does something else is refused with a sentence saying what; the digits
 * themselves (number + Enter) are not offered for editing. Its *pdfpc's digit tools* choice
 * (off by default) gives the lone digits 1–5 their pdfpc tools, which then show as rows here.
 */
import { h, replace } from "../../lib/dom.ts";
import { chordOf, digitToolsOn, displayChord, withDigitTools, type Binding } from "../keymap.ts";
import { editableRows, setKeys } from "../keymap-store.ts";

export interface KeysViewDeps {
  list: HTMLElement;
  status: HTMLElement;
  /** The checkbox for pdfpc's digit tools. */
  digitTools: HTMLInputElement;
  bindings(): readonly Binding[];
  /** Adopt and store a new map. */
  change(bindings: Binding[]): void;
}

export class KeysView {
  private capturing: { id: string; button: HTMLButtonElement } | null = null;

  constructor(private readonly deps: KeysViewDeps) {
    // Capture phase: the key being assigned must not also act on the talk.
    document.addEventListener("keydown", (event) => this.onCapture(event), true);
    deps.digitTools.addEventListener("change", () => {
      this.deps.change(withDigitTools(this.deps.bindings(), deps.digitTools.checked));
      this.deps.status.dataset.kind = "ok";
      replace(this.deps.status, deps.digitTools.checked ? "pdfpc's digit tools on: a lone 1–5 picks its tool. Saved in this browser." : "pdfpc's digit tools off: a digit only goes to a slide. Saved in this browser.");
      this.render();
    });
  }

  /** Whether a key press is being captured for a binding (the page must not act on it). */
  get busy(): boolean {
    return this.capturing !== null;
  }

  render(): void {
    this.deps.digitTools.checked = digitToolsOn(this.deps.bindings());
    const rows = editableRows(this.deps.bindings());
    replace(
      this.deps.list,
      ...rows.map((row) => {
        const keys = row.keys.map((k) =>
          h(
            "span",
            { class: "key-chip" },
            h("kbd", {}, row.when === "digit" ? k : displayChord(k)),
            h("button", { type: "button", class: "chip-remove", "aria-label": `Remove ${row.when === "digit" ? k : displayChord(k)} from “${row.label}”`, "data-remove": k, "data-binding": row.id }, "×"),
          ),
        );
        const add = h("button", { type: "button", class: "btn btn-small btn-ghost key-add", "data-binding": row.id, "aria-label": `Add key for “${row.label}”` }, "Add key");
        return h("tr", { "data-binding": row.id }, h("td", { class: "key-cell" }, ...(keys.length ? keys : [h("span", { class: "muted" }, "no key")])), h("td", {}, row.label), h("td", {}, add));
      }),
    );
    for (const button of this.deps.list.querySelectorAll<HTMLButtonElement>("button.key-add")) {
      button.addEventListener("click", () => this.startCapture(button.dataset.binding!, button));
    }
    for (const button of this.deps.list.querySelectorAll<HTMLButtonElement>("button.chip-remove")) {
      button.addEventListener("click", () => {
        const id = button.dataset.binding!;
        const current = editableRows(this.deps.bindings()).find((r) => r.id === id)?.keys ?? [];
        this.apply(id, current.filter((k) => k !== button.dataset.remove));
      });
    }
  }

  private startCapture(id: string, button: HTMLButtonElement) {
    this.capturing = { id, button };
    button.textContent = "Press a key… (Esc cancels)";
    button.setAttribute("aria-pressed", "true");
    replace(this.deps.status, "Press the key to add.");
  }

  private onCapture(event: KeyboardEvent) {
    if (!this.capturing) return;
    const chord = chordOf(event);
    if (!chord) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const { id } = this.capturing;
    this.capturing = null;
    if (chord === "Escape") {
      replace(this.deps.status, "");
      return this.render();
    }
    const current = editableRows(this.deps.bindings()).find((r) => r.id === id)?.keys ?? [];
    if (current.includes(chord)) return this.render();
    this.apply(id, [...current, chord]);
  }

  private apply(id: string, keys: string[]) {
    const result = setKeys(this.deps.bindings(), id, keys);
    if (!result.ok) {
      replace(this.deps.status, result.reason);
      this.deps.status.dataset.kind = "refused";
      return this.render();
    }
    this.deps.status.dataset.kind = "ok";
    replace(this.deps.status, "Saved in this browser.");
    this.deps.change(result.bindings);
    this.render();
  }
}
