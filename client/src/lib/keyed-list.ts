/**
 * @module client/lib/keyed-list
 * A list of elements kept in step with a list of items by key (a question's id): each patch
 * creates the rows that are new, patches only the rows whose item changed, removes the ones
 * gone and moves the rest into the new order with as few moves as the order allows (the rows
 * on a longest increasing run of their old places stay; only the others move). So a list of
 * hundreds costs a patch in proportion to what changed, not to its length, and a row keeps its
 * element — and the keyboard focus on its buttons — while votes reorder the list.
 *
 * A moved row goes with `moveBefore` where the browser has it (the focus and any running
 * transition stay on it); elsewhere with `insertBefore`, after which the element that had the
 * focus gets it back (without scrolling). A row replaced whole takes the focus to the control
 * of the new row with the same `data-focus` value.
 */

export interface KeyedRow<T> {
  key(item: T): string;
  create(item: T): HTMLElement;
  /** Bring `el`, drawn for `before`, to `item`: patched in place (nothing returned) or a new element to take its place. */
  update(el: HTMLElement, item: T, before: T): HTMLElement | void;
  /** Nothing to patch between the two (default: the same object). */
  same?(a: T, b: T): boolean;
}

/** What one patch did, row by row. */
export interface PatchCounts {
  created: number;
  updated: number;
  moved: number;
  removed: number;
}

type Mover = { moveBefore?(node: Node, child: Node | null): void };

export class KeyedList<T> {
  private drawn = new Map<string, { el: HTMLElement; item: T }>();
  /** The keys in the order their elements stand in the parent. */
  private order: string[] = [];

  /** Rows go into `parent` before `end` (null: at its end); nothing else may stand among them. */
  constructor(
    private readonly parent: HTMLElement,
    private readonly row: KeyedRow<T>,
    private readonly end: Node | null = null,
  ) {}

  /** The keys drawn, in order. */
  get keys(): readonly string[] {
    return this.order;
  }

  /** Make the rows show `items`, in their order. */
  patch(items: readonly T[]): PatchCounts {
    const counts: PatchCounts = { created: 0, updated: 0, moved: 0, removed: 0 };
    const active = globalThis.document?.activeElement as HTMLElement | null | undefined;
    const focus = active && this.parent.contains(active) ? { el: active, key: active.getAttribute("data-focus") } : null;
    const same = this.row.same ?? Object.is;
    const oldIndex = new Map(this.order.map((key, i) => [key, i]));
    const next = new Map<string, { el: HTMLElement; item: T }>();
    const keys: string[] = [];
    for (const item of items) {
      const key = this.row.key(item);
      if (next.has(key)) continue;
      const had = this.drawn.get(key);
      let el: HTMLElement;
      if (!had) {
        el = this.row.create(item);
        counts.created++;
      } else if (same(had.item, item)) {
        el = had.el;
      } else {
        const replaced = this.row.update(had.el, item, had.item);
        counts.updated++;
        el = replaced ?? had.el;
        if (replaced && replaced !== had.el) had.el.replaceWith(replaced);
      }
      next.set(key, { el, item });
      keys.push(key);
    }
    for (const [key, { el }] of this.drawn) {
      if (next.has(key)) continue;
      el.remove();
      counts.removed++;
    }
    // Rows that keep their place: the longest run of kept rows whose old places increase.
    const stay = stayingPositions(keys.map((key) => oldIndex.get(key) ?? -1));
    const parent = this.parent as HTMLElement & Mover;
    let after: Node | null = this.end;
    for (let i = keys.length - 1; i >= 0; i--) {
      const el = next.get(keys[i]!)!.el;
      const isNew = !this.drawn.has(keys[i]!);
      if (!stay.has(i)) {
        if (!isNew && parent.moveBefore && el.isConnected) parent.moveBefore(el, after);
        else parent.insertBefore(el, after);
        if (!isNew) counts.moved++;
      }
      after = el;
    }
    this.drawn = next;
    this.order = keys;
    if (focus) restoreFocus(this.parent, focus);
    return counts;
  }

  /** Forget every row (their elements leave the parent). */
  clear(): void {
    for (const { el } of this.drawn.values()) el.remove();
    this.drawn.clear();
    this.order = [];
  }
}

/**
 * The positions (in the new order) of rows that need not move: a longest strictly increasing
 * subsequence of their old places (-1: new, never staying). O(n log n).
 */
export function stayingPositions(old: readonly number[]): Set<number> {
  /** tails[k]: the position whose old place ends the best increasing run of length k + 1. */
  const tails: number[] = [];
  const previous = new Array<number>(old.length).fill(-1);
  for (let i = 0; i < old.length; i++) {
    const value = old[i]!;
    if (value < 0) continue;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (old[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const stay = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) stay.add(i);
  return stay;
}

/** The focus back where it was: on the same element if it is still in the list, else on its row's new control of the same `data-focus`. */
function restoreFocus(parent: HTMLElement, focus: { el: HTMLElement; key: string | null }): void {
  if (document.activeElement === focus.el) return;
  if (focus.el.isConnected && parent.contains(focus.el)) return focus.el.focus({ preventScroll: true });
  if (focus.key !== null) parent.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focus.key)}"]`)?.focus({ preventScroll: true });
}
