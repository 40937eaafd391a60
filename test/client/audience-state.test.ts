import { describe, expect, test } from "bun:test";
import { emptyAudience, markMine, reduceAudience, sortedQuestions } from "../../client/src/live/audience-state.ts";
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
});
