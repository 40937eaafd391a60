/**
 * @module client/live/question-window
 * A list of questions as drawn on the presenter's panel, the viewer page and the remote: rows
 * keyed by question id (../lib/keyed-list.ts), the first VISIBLE_ROWS of them and a line after
 * the list — "and K more" with a button that shows VISIBLE_ROWS more (./question-order.ts) —
 * and the drawn order held while the pointer is over the list, so a vote or a new question
 * never moves a row from under a click. Each surface makes its rows;
 * this only decides which are drawn, in which order, and says when it wants drawing again.
 */
import type { LiveQuestionT } from "../../../src/shared/live-audience-protocol.ts";
import { h } from "../lib/dom.ts";
import { KeyedList, type KeyedRow, type PatchCounts } from "../lib/keyed-list.ts";
import { holdOrder, VISIBLE_ROWS, windowed } from "./question-order.ts";

export interface QuestionWindowOptions<T> {
  /** The list element (an `<ol>`): the window's rows are its only children, with `empty`. */
  list: HTMLElement;
  row: KeyedRow<T>;
  /** Shown in place of the rows when there are none (placed by the caller; inside the list it goes last). */
  empty?: HTMLElement;
  /** The window wants drawing again: at the next frame when the pointer left the list, `now` when more rows were asked for. */
  redraw: (now: boolean) => void;
  /** The id of the "and K more" line (its button's is `${id}-button`). */
  id: string;
}

export class QuestionWindow<T> {
  private readonly rows: KeyedList<T>;
  private limit = VISIBLE_ROWS;
  private pointerIn = false;
  /** The line after the list: how many more questions there are, and the button to show some. */
  readonly more: HTMLElement;
  private readonly moreText: HTMLElement;
  private readonly moreButton: HTMLButtonElement;

  constructor(private readonly options: QuestionWindowOptions<T>) {
    const { list, empty, redraw, id } = options;
    this.rows = new KeyedList(list, options.row, empty && empty.parentNode === list ? empty : null);
    this.moreText = h("span", { class: "question-more-count" });
    this.moreButton = h("button", { type: "button", class: "btn btn-small", id: `${id}-button`, onclick: () => this.showMore() }) as HTMLButtonElement;
    this.more = h("p", { class: "question-more muted", id, hidden: true }, this.moreText, " ", this.moreButton);
    list.after(this.more);
    // Where the pointer is, from every move and press on the page (not from the list's enter
    // and leave alone: WebKitWebDriver's moves did not always give the list its pointerleave).
    const track = (event: Event) => this.pointer(list.contains(event.target as Node | null));
    document.addEventListener("pointermove", track, { passive: true });
    document.addEventListener("pointerdown", track, { passive: true });
    // A finger or a pen that lifts is nowhere any more (a mouse stays where it is).
    document.addEventListener("pointerup", (event) => (event.pointerType === "mouse" ? undefined : this.pointer(false)), { passive: true });
    list.addEventListener("pointerleave", () => this.pointer(false));
  }

  /**
   * The pointer is over the list: the drawn order holds. (Not the keyboard's focus: a presenter
   * with a button of the list focused drives the talk with keys, and the list would never move;
   * a focused row keeps the focus wherever it moves, ../lib/keyed-list.ts.)
   */
  get held(): boolean {
    return this.pointerIn;
  }

  /** Draw `questions` (in the order to show) as rows made by `item`, the first `limit` of them. */
  show(questions: readonly LiveQuestionT[], item: (q: LiveQuestionT) => T): PatchCounts {
    const ordered = this.held ? holdOrder(questions, this.rows.keys, (q) => q.id) : questions;
    const { shown, more } = windowed(ordered, this.limit);
    const counts = this.rows.patch(shown.map(item));
    if (this.options.empty) this.options.empty.hidden = shown.length > 0;
    this.more.hidden = more === 0;
    if (more > 0) {
      const text = `and ${more.toLocaleString("en")} more`;
      if (this.moreText.textContent !== text) this.moreText.textContent = text;
      const label = `Show ${Math.min(VISIBLE_ROWS, more)} more`;
      if (this.moreButton.textContent !== label) this.moreButton.textContent = label;
    }
    return counts;
  }

  /** A new talk: back to the first VISIBLE_ROWS, no rows drawn. */
  reset(): void {
    this.limit = VISIBLE_ROWS;
    this.rows.clear();
  }

  private pointer(over: boolean): void {
    if (over === this.pointerIn) return;
    this.pointerIn = over;
    // Let go: the order the list waited with is drawn now.
    if (!over) this.options.redraw(false);
  }

  private showMore(): void {
    this.limit += VISIBLE_ROWS;
    this.options.redraw(true);
  }
}

/**
 * A window whose rows each draw one question (`item.q`, keyed by its id): made by `make`, brought
 * up to date in place by `patch` when it can (false: the row is made anew). The viewer page's
 * and the remote's lists.
 */
export function questionItems<T extends { q: LiveQuestionT }>(options: Omit<QuestionWindowOptions<T>, "row" | "empty"> & { empty: HTMLElement; make(item: T): HTMLElement; patch(li: HTMLElement, item: T, before: T): boolean; same(a: T, b: T): boolean }): QuestionWindow<T> {
  const { make, patch, same, ...rest } = options;
  // The line for no questions stands last in the list, after the rows.
  if (!options.empty.parentNode) options.list.append(options.empty);
  return new QuestionWindow<T>({ ...rest, row: { key: (item) => item.q.id, create: make, update: (li, item, before) => (patch(li, item, before) ? undefined : make(item)), same } });
}
