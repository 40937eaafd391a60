/**
 * The order lists of questions are drawn in (client/src/live/question-order.ts), as pure logic:
 * "most voted" moves rows at most every REORDER_MS (counts change meanwhile, places do not), at
 * once on a reset (the person picked an order), never while held; a new question is placed by
 * the votes it came with; ties go to the newest, then the later arrival; the window draws the
 * first rows and counts the rest; a held list keeps its drawn order.
 */
import { describe, expect, test } from "bun:test";
import { emptyAudience, reduceAudienceAll, sortedQuestions, type AudienceState } from "../../client/src/live/audience-state.ts";
import { holdOrder, REORDER_MS, SteadyOrder, VISIBLE_ROWS, windowed } from "../../client/src/live/question-order.ts";
import type { LiveQuestionT } from "../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../src/shared/live-protocol.ts";

const q = (id: string, votes: number, at: number): LiveQuestionT => ({ id, text: `question ${id}`, votes, at, status: "open" });
const asked = (...questions: LiveQuestionT[]) => questions.map((question) => ({ v: 1, type: "question", question }) as LiveServerMessageT);
const apply = (messages: LiveServerMessageT[], from: AudienceState = emptyAudience()) => reduceAudienceAll(from, messages).state;

/** The ids "most voted" draws at `now`, through `order`. */
function drawn(order: SteadyOrder, state: AudienceState, now: number, held = false) {
  const { votesOf, due } = order.votes(state.questions.values(), now, held);
  return { ids: sortedQuestions(state, "votes", votesOf).map((x) => x.id), due };
}

describe("a steady order under votes", () => {
  test("votes change the counts at once and the places at most every REORDER_MS; a reset re-sorts at once", () => {
    const order = new SteadyOrder();
    let s = apply(asked(q("a", 3, 10), q("b", 2, 20), q("c", 1, 30)));
    expect(drawn(order, s, 0)).toEqual({ ids: ["a", "b", "c"], due: null });
    // c overtakes everyone: its count changes now, its place waits for the next re-sort.
    s = apply(asked(q("c", 9, 30)), s);
    expect(drawn(order, s, 100)).toEqual({ ids: ["a", "b", "c"], due: REORDER_MS - 100 });
    expect(s.questions.get("c")!.votes).toBe(9);
    expect(drawn(order, s, REORDER_MS - 1).ids).toEqual(["a", "b", "c"]);
    expect(drawn(order, s, REORDER_MS)).toEqual({ ids: ["c", "a", "b"], due: null });
    // Another change right after: it waits a whole REORDER_MS again, unless the person picks an order.
    s = apply(asked(q("b", 20, 20)), s);
    expect(drawn(order, s, REORDER_MS + 10).ids).toEqual(["c", "a", "b"]);
    order.reset();
    expect(drawn(order, s, REORDER_MS + 20)).toEqual({ ids: ["b", "c", "a"], due: null });
  });

  test("held (the pointer over the list), nothing re-sorts and no timer is asked for; let go, it re-sorts", () => {
    const order = new SteadyOrder();
    let s = apply(asked(q("a", 1, 10), q("b", 0, 20)));
    drawn(order, s, 0);
    s = apply(asked(q("b", 5, 20)), s);
    expect(drawn(order, s, 10 * REORDER_MS, true)).toEqual({ ids: ["a", "b"], due: null });
    expect(drawn(order, s, 10 * REORDER_MS + 1, false)).toEqual({ ids: ["b", "a"], due: null });
  });

  test("a new question is placed by the votes it came with; ties go to the newest, then to the later arrival", () => {
    const order = new SteadyOrder();
    let s = apply(asked(q("a", 2, 10), q("b", 0, 20)));
    drawn(order, s, 0);
    s = apply(asked(q("a", 0, 10), q("c", 1, 30), q("d", 0, 20)), s);
    // a keeps its frozen 2 votes until the re-sort; c (1) comes before b and d (0); d and b tie
    // at the same millisecond: d arrived later, so it is first of the two.
    expect(drawn(order, s, 1).ids).toEqual(["a", "c", "d", "b"]);
    expect(sortedQuestions(s, "newest").map((x) => x.id)).toEqual(["c", "d", "b", "a"]);
  });
});

describe("the window and the held order", () => {
  test("the first rows are drawn and the rest counted", () => {
    const list = Array.from({ length: 2_000 }, (_, i) => i);
    expect(windowed(list, VISIBLE_ROWS)).toEqual({ shown: list.slice(0, VISIBLE_ROWS), more: 2_000 - VISIBLE_ROWS });
    expect(windowed([1, 2], VISIBLE_ROWS)).toEqual({ shown: [1, 2], more: 0 });
    expect(VISIBLE_ROWS).toBeGreaterThanOrEqual(20);
  });

  test("held, the drawn rows keep their order, new ones come after them, gone ones leave", () => {
    const list = [q("d", 9, 40), q("b", 5, 20), q("a", 1, 10)];
    expect(holdOrder(list, ["a", "c", "b"], (x) => x.id).map((x) => x.id)).toEqual(["a", "b", "d"]);
  });
});
