import { describe, expect, test } from "bun:test";
import { emptyAudience, isAudienceMessage, markMine, reduceAudience, reduceAudienceAll, sortedQuestions, type AudienceState } from "../../client/src/live/audience-state.ts";
import type { LiveQuestionT } from "../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../src/shared/live-protocol.ts";

const q = (id: string, votes: number, at: number, status: LiveQuestionT["status"] = "open"): LiveQuestionT => ({ id, text: `question ${id}`, votes, at, status });
const apply = (messages: unknown[]) => messages.reduce((s: ReturnType<typeof emptyAudience>, m) => reduceAudience(s, m as LiveServerMessageT).state, emptyAudience());

describe("the client's audience state", () => {
  test("hello.audience replaces everything; a hello without it (an older server) is no audience", () => {
    const s = apply([
      { v: 1, type: "question", question: q("old", 0, 1) },
      {
        v: 1,
        type: "hello",
        audience: { qa: { open: true, moderated: false }, questions: [q("a", 2, 10)], shown: null, poll: null, results: null, reactionsShown: false, slides: [{ page: 3, counts: { "👍": 2 } }], mine: { upvoted: ["a"], voted: [] } },
      },
    ]);
    expect(s.known).toBe(true);
    expect([...s.questions.keys()]).toEqual(["a"]);
    expect(s.upvoted.has("a")).toBe(true);
    expect(s.slides.get(3)).toEqual({ "👍": 2 });
    const old = reduceAudience(s, { v: 1, type: "hello" } as unknown as LiveServerMessageT);
    expect(old.state.known).toBe(false);
    expect(old.state.questions.size).toBe(0);
  });

  test("questions upsert, the shown one follows its changes, a gone one leaves the list and the projector", () => {
    let s = apply([{ v: 1, type: "question", question: q("a", 0, 1) }, { v: 1, type: "shown", question: q("a", 0, 1) }, { v: 1, type: "question", question: q("a", 5, 1, "answered") }]);
    expect(s.questions.get("a")?.votes).toBe(5);
    expect(s.shown?.status).toBe("answered");
    s = reduceAudience(s, { v: 1, type: "questionGone", id: "a" } as LiveServerMessageT).state;
    expect(s.questions.size).toBe(0);
    expect(s.shown).toBeNull();
  });

  test("a new poll starts without results; the same poll closing keeps them; reactions add up per slide", () => {
    const poll = { id: "p1", question: "Which?", options: ["A", "B"], multiple: false, status: "open", shown: false };
    let s = apply([{ v: 1, type: "poll", poll }, { v: 1, type: "pollResults", pollId: "p1", counts: [2, 1], voters: 3 }, { v: 1, type: "poll", poll: { ...poll, status: "closed" } }]);
    expect(s.results).toEqual({ pollId: "p1", counts: [2, 1], voters: 3 });
    s = reduceAudience(s, { v: 1, type: "poll", poll: { ...poll, id: "p2" } } as LiveServerMessageT).state;
    expect(s.results).toBeNull();
    s = apply([{ v: 1, type: "reactions", page: 2, counts: { "👏": 3 } }, { v: 1, type: "reactions", page: 2, counts: { "👏": 1, "🎉": 2 } }]);
    expect(s.slides.get(2)).toEqual({ "👏": 4, "🎉": 2 });
  });

  test("a message that is not the audience's changes nothing", () => {
    const s = emptyAudience();
    const r = reduceAudience(s, { v: 1, type: "paused" } as unknown as LiveServerMessageT);
    expect(r.changed).toBe(false);
    expect(r.state).toBe(s);
  });

  test("sorted newest first or by votes (ties newest first); markMine remembers an own vote", () => {
    const s = apply([{ v: 1, type: "question", question: q("a", 1, 1) }, { v: 1, type: "question", question: q("b", 3, 2) }, { v: 1, type: "question", question: q("c", 1, 3) }]);
    expect(sortedQuestions(s, "newest").map((x) => x.id)).toEqual(["c", "b", "a"]);
    expect(sortedQuestions(s, "votes").map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(markMine(s, "voted", "p1").voted.has("p1")).toBe(true);
    expect(s.voted.has("p1")).toBe(false);
  });

  test("a frame's batch reduces to the same state as one message at a time, and leaves the state it started from as it was", () => {
    const start = apply([{ v: 1, type: "hello", audience: { qa: { open: true, moderated: false }, questions: [q("a", 0, 1), q("b", 0, 2)], shown: null, poll: null, results: null, reactionsShown: false } }]);
    const before = { ...start, questions: new Map(start.questions), slides: new Map(start.slides) };
    const batch = [
      { v: 1, type: "question", question: q("c", 0, 3) },
      { v: 1, type: "question", question: q("a", 4, 1) },
      { v: 1, type: "reactions", page: 2, counts: { "👍": 2 } },
      { v: 1, type: "shown", question: q("a", 4, 1) },
      { v: 1, type: "questionGone", id: "b" },
      { v: 1, type: "question", question: q("a", 5, 1, "answered") },
      { v: 1, type: "paused" },
      { v: 1, type: "reactions", page: 2, counts: { "👍": 1, "🎉": 1 } },
    ] as unknown as LiveServerMessageT[];
    const together = reduceAudienceAll(start, batch);
    const oneByOne = batch.reduce((s: AudienceState, m) => reduceAudience(s, m).state, start);
    expect(together.changed).toBe(true);
    expect(together.state).toEqual(oneByOne);
    expect([...together.state.questions.keys()]).toEqual(["a", "c"]);
    expect(together.state.shown).toEqual(q("a", 5, 1, "answered"));
    expect(together.state.slides.get(2)).toEqual({ "👍": 3, "🎉": 1 });
    expect(start).toEqual(before);
    expect(start.questions).not.toBe(together.state.questions);
    // Nothing of the audience's: the same state back.
    const idle = reduceAudienceAll(start, [{ v: 1, type: "paused" } as unknown as LiveServerMessageT]);
    expect(idle).toEqual({ state: start, changed: false });
    expect(isAudienceMessage({ v: 1, type: "paused" } as unknown as LiveServerMessageT)).toBe(false);
    expect(isAudienceMessage(batch[0]!)).toBe(true);
  });

  test("a visit sees the state just before and just after each message it picks, and what it saw stays as it was", () => {
    const seen: { when: string; ids: string[]; state: AudienceState }[] = [];
    const batch = [
      { v: 1, type: "question", question: q("a", 0, 1) },
      { v: 1, type: "poll", poll: { id: "p1", question: "Which?", options: ["A", "B"], multiple: false, status: "open", shown: false } },
      { v: 1, type: "question", question: q("b", 0, 2) },
      { v: 1, type: "question", question: q("a", 3, 1) },
    ] as unknown as LiveServerMessageT[];
    const { state } = reduceAudienceAll(emptyAudience(), batch, {
      picks: (m) => m.type === "poll",
      before: (s) => seen.push({ when: "before", ids: [...s.questions.keys()], state: s }),
      after: (s) => seen.push({ when: "after", ids: [...s.questions.keys()], state: s }),
    });
    expect(seen.map(({ when, ids, state: s }) => ({ when, ids, poll: s.poll?.id ?? null }))).toEqual([
      { when: "before", ids: ["a"], poll: null },
      { when: "after", ids: ["a"], poll: "p1" },
    ]);
    // Later messages of the batch changed copies, not the states handed out.
    expect([...seen[1]!.state.questions.keys()]).toEqual(["a"]);
    expect(seen[1]!.state.questions.get("a")!.votes).toBe(0);
    expect([...state.questions.values()].map((x) => [x.id, x.votes])).toEqual([["a", 3], ["b", 0]]);
  });
});
