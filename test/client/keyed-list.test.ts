/**
 * The keyed list patcher (client/src/lib/keyed-list.ts), on the recording DOM: rows keyed by id
 * are made once, patched only when their item changed, removed when gone and moved with the
 * fewest moves the new order allows (the rest keep their elements and places); the focus stays
 * on the control it was on, through a move and through a row drawn anew.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { h } from "../../client/src/lib/dom.ts";
import { KeyedList, stayingPositions } from "../../client/src/lib/keyed-list.ts";
import { fakeDocumentForFile, type FakeElement } from "../helpers/fake-dom.ts";

interface Item {
  id: string;
  votes: number;
  status?: string;
}

const fakeDoc = fakeDocumentForFile();

const el = (node: unknown) => node as FakeElement;

/** A list in the document; rows are `<li data-id>` with a vote count and a button, patched in place unless the status changed. */
function list() {
  const parent = h("ol");
  fakeDoc().body.appendChild(el(parent));
  const calls = { create: [] as string[], update: [] as string[] };
  const make = (item: Item) => {
    calls.create.push(item.id);
    return h("li", { "data-id": item.id, class: item.status ?? "open" }, h("span", { class: "votes" }, String(item.votes)), h("button", { type: "button", "data-focus": `${item.id} up` }, "Up"));
  };
  const keyed = new KeyedList<Item>(parent, {
    key: (item) => item.id,
    create: make,
    update: (li, item, before) => {
      calls.update.push(item.id);
      if (item.status !== before.status) return make(item);
      li.querySelector(".votes")!.textContent = String(item.votes);
    },
    same: (a, b) => a.votes === b.votes && a.status === b.status,
  });
  const ids = () => el(parent).children.map((c) => c.getAttribute("data-id"));
  const row = (id: string) => el(parent).children.find((c) => c.getAttribute("data-id") === id)!;
  return { parent, keyed, calls, ids, row };
}

const items = (...ids: string[]) => ids.map((id) => ({ id, votes: 0 }));

describe("the keyed list", () => {
  test("rows are made once; the same items again patch nothing; a changed item patches its row only, in place", () => {
    const { keyed, calls, ids, row } = list();
    expect(keyed.patch(items("a", "b", "c"))).toEqual({ created: 3, updated: 0, moved: 0, removed: 0 });
    expect(ids()).toEqual(["a", "b", "c"]);
    const b = row("b");
    expect(keyed.patch(items("a", "b", "c"))).toEqual({ created: 0, updated: 0, moved: 0, removed: 0 });
    expect(keyed.patch([{ id: "a", votes: 0 }, { id: "b", votes: 7 }, { id: "c", votes: 0 }])).toEqual({ created: 0, updated: 1, moved: 0, removed: 0 });
    expect(calls.update).toEqual(["b"]);
    expect(row("b")).toBe(b);
    expect(b.querySelector(".votes")!.textContent).toBe("7");
    expect(calls.create).toEqual(["a", "b", "c"]);
  });

  test("a row whose update makes a new element is replaced where it stands", () => {
    const { keyed, ids, row } = list();
    keyed.patch(items("a", "b", "c"));
    const before = row("b");
    keyed.patch([{ id: "a", votes: 0 }, { id: "b", votes: 0, status: "answered" }, { id: "c", votes: 0 }]);
    expect(ids()).toEqual(["a", "b", "c"]);
    expect(row("b")).not.toBe(before);
    expect(row("b").className).toBe("answered");
    expect(before.parentNode).toBeNull();
  });

  test("gone rows leave, new ones come in their place in the order; one row jumping is one move", () => {
    const { keyed, ids, row, parent } = list();
    keyed.patch(items("a", "b", "c", "d", "e", "f"));
    const kept = Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((id) => [id, row(id)]));
    expect(keyed.patch(items("a", "c", "x", "d", "e", "f"))).toEqual({ created: 1, updated: 0, moved: 0, removed: 1 });
    expect(ids()).toEqual(["a", "c", "x", "d", "e", "f"]);
    // The first row sinks to the bottom: only it moves, whichever way a naive walk would go.
    el(parent).moves = 0;
    expect(keyed.patch(items("c", "x", "d", "e", "f", "a")).moved).toBe(1);
    expect(el(parent).moves).toBe(1);
    expect(ids()).toEqual(["c", "x", "d", "e", "f", "a"]);
    for (const id of ["a", "c", "d", "e", "f"]) expect(row(id)).toBe(kept[id]!);
    // Reversed: all but one move.
    expect(keyed.patch(items("a", "f", "e", "d", "x", "c")).moved).toBe(5);
    expect(ids()).toEqual(["a", "f", "e", "d", "x", "c"]);
    expect(keyed.keys).toEqual(["a", "f", "e", "d", "x", "c"]);
  });

  test("any new order: the rows stand in it, each kept row keeps its element, and only rows off a longest kept run move", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), (first, second) => {
        const { keyed, ids, row } = list();
        const a = first.map(String);
        const b = second.map(String);
        keyed.patch(items(...a));
        const elements = new Map(a.map((id) => [id, row(id)]));
        const counts = keyed.patch(items(...b));
        expect(ids()).toEqual(b);
        for (const id of b) if (elements.has(id)) expect(row(id)).toBe(elements.get(id)!);
        const old = b.map((id) => a.indexOf(id));
        const kept = old.filter((i) => i >= 0).length;
        expect(counts.moved).toBe(kept - stayingPositions(old).size);
        expect(counts.created).toBe(b.filter((id) => !a.includes(id)).length);
        expect(counts.removed).toBe(a.filter((id) => !b.includes(id)).length);
      }),
      { numRuns: 200 },
    );
  });

  test("the longest increasing run of old places stays; new rows (-1) never do", () => {
    expect([...stayingPositions([0, 1, 2, 3])].sort()).toEqual([0, 1, 2, 3]);
    expect(stayingPositions([3, 2, 1, 0]).size).toBe(1);
    expect([...stayingPositions([1, 2, 3, 4, 5, 0])].sort()).toEqual([0, 1, 2, 3, 4]);
    // Two runs of three are longest here (0 2 3 and 0 1 3): either, increasing, never a new row.
    const old = [-1, 0, -1, 2, 1, 3];
    const stay = [...stayingPositions(old)].sort();
    expect(stay.length).toBe(3);
    expect(stay.map((i) => old[i]!)).toEqual([...stay.map((i) => old[i]!)].sort());
    expect(stay.every((i) => old[i]! >= 0)).toBe(true);
    expect(stayingPositions([]).size).toBe(0);
  });

  test("the focus stays on the control it was on: through a move, and on the same control of a row drawn anew", () => {
    const { keyed, row } = list();
    keyed.patch(items("a", "b", "c"));
    const button = row("a").querySelector("button")!;
    button.focus();
    expect(fakeDoc().activeElement).toBe(button);
    keyed.patch(items("b", "c", "a"));
    expect(fakeDoc().activeElement).toBe(button);
    keyed.patch([{ id: "b", votes: 0 }, { id: "c", votes: 0 }, { id: "a", votes: 0, status: "answered" }]);
    const again = row("a").querySelector("button")!;
    expect(again).not.toBe(button);
    expect(fakeDoc().activeElement).toBe(again);
    // A focus elsewhere is left alone.
    const outside = h("button");
    fakeDoc().body.appendChild(el(outside));
    el(outside).focus();
    keyed.patch(items("a", "b", "c"));
    expect(fakeDoc().activeElement).toBe(el(outside));
  });

  test("rows go before the end node given, which stays last; clear takes every row away", () => {
    const parent = h("ol");
    const end = h("li", { class: "empty" }, "None");
    parent.append(end);
    const keyed = new KeyedList<Item>(parent, { key: (i) => i.id, create: (i) => h("li", { "data-id": i.id }), update: () => {} }, end);
    keyed.patch(items("a", "b"));
    keyed.patch(items("b", "a", "c"));
    expect(el(parent).children.map((c) => c.getAttribute("data-id") ?? c.className)).toEqual(["b", "a", "c", "empty"]);
    keyed.clear();
    expect(el(parent).children.map((c) => c.className)).toEqual(["empty"]);
    expect(keyed.keys).toEqual([]);
  });
});
