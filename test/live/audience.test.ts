/**
 * The audience model (src/live/audience/model.ts) on its own: what each call changes, what it sends
 * to whom, and every refusal's code — questions and their limits, up-votes, moderation, the one
 * poll and its votes, reactions coalesced per tick, the hello each role gets, and a snapshot
 * that survives the row and refuses to be forged.
 */
import { describe, expect, test } from "bun:test";
import { type Actor, Audience, type AudienceResult, type Outgoing } from "../../src/live/audience/model.ts";
import type { LiveServerMessageT } from "../../src/shared/live-protocol.ts";

function model(limits = {}, saved?: unknown) {
  let now = 1_000_000;
  let ids = 0;
  const audience = new Audience({ clock: () => now, newId: () => `id${++ids}`, limits }, saved);
  return { audience, advance: (ms: number) => (now += ms) };
}
const viewer = (n: number, address = `10.0.0.${n}`, perAddress = 5): Actor => ({ viewerId: `viewer-${String(n).padStart(10, "0")}`, addressKey: address, perAddress });
const ok = (result: AudienceResult) => {
  if (!result.ok) throw new Error(`refused: ${result.code} ${result.message}`);
  return result.out;
};
const code = (result: AudienceResult) => (result.ok ? "ok" : result.code);
const to = (out: Outgoing[], who: Outgoing["to"]) => out.filter((o) => o.to === who).map((o) => o.message);
const types = (messages: LiveServerMessageT[]) => messages.map((m) => m.type);
function asked(audience: Audience, actor: Actor, text = "Why?") {
  const out = ok(audience.ask(actor, text));
  const message = out[0]!.message;
  if (message.type !== "question") throw new Error("no question");
  return message.question;
}

describe("questions", () => {
  test("closed until the presenter opens Q&A; then asked, cleaned and sent to everyone", () => {
    const { audience } = model();
    expect(code(audience.ask(viewer(1), "Why?"))).toBe("QA_CLOSED");
    expect(types(to(ok(audience.setQa(true, false)), "viewers"))).toEqual(["qa"]);
    const out = ok(audience.ask(viewer(1), "  Cafe\u0301\u202E <b>x</b>\n\nnext\u0007 ", " Ada\u0000 "));
    const message = to(out, "viewers")[0];
    expect(message).toEqual({ v: 1, type: "question", question: { id: "id1", text: "Café <b>x</b> next", name: "Ada", votes: 0, at: 1_000_000, status: "open" } });
    expect(to(out, "staff")).toEqual([message!]);
  });

  test("text is 1 to 280 characters as people count them, a name at most 40", () => {
    const { audience } = model();
    audience.setQa(true, false);
    expect(code(audience.ask(viewer(1), " \n\u0007 "))).toBe("BAD_TEXT");
    expect(code(audience.ask(viewer(1), "🎉".repeat(280)))).toBe("ok");
    expect(code(audience.ask(viewer(2), "x".repeat(281)))).toBe("BAD_TEXT");
    expect(code(audience.ask(viewer(3), "Why?", "n".repeat(41)))).toBe("BAD_TEXT");
    expect(code(audience.ask(viewer(3), "Why?", "  "))).toBe("ok");
    expect(audience.hello("viewer").questions.map((q) => q.name)).toEqual([undefined, undefined]);
  });

  test("at most 5 per viewer id and 20 per address a minute, 2,000 per talk", () => {
    const { audience, advance } = model({ questions: 30 });
    audience.setQa(true, false);
    for (let i = 0; i < 5; i++) expect(code(audience.ask(viewer(1), `q${i}`))).toBe("ok");
    expect(code(audience.ask(viewer(1), "again"))).toBe("QUESTION_RATE");
    // Other ids on the same address (viewer 1's) share its 20: three more ids ask 15, a fourth none.
    for (let n = 2; n <= 5; n++) for (let i = 0; i < 5; i++) expect(code(audience.ask(viewer(n, "10.0.0.1"), `q${n}${i}`))).toBe(n < 5 ? "ok" : "QUESTION_RATE");
    expect(code(audience.ask(viewer(9, "10.0.0.1"), "one more"))).toBe("QUESTION_RATE");
    advance(60_000);
    for (let i = 0; i < 5; i++) audience.ask(viewer(1), `later ${i}`);
    for (let n = 10; n < 20; n++) audience.ask(viewer(n), "fill");
    expect(audience.hello("presenter").questions).toHaveLength(30);
    expect(code(audience.ask(viewer(30), "full"))).toBe("QA_FULL");
  });

  test("moderated: held for the presenter, approved to everyone; hidden goes for viewers and off the projector", () => {
    const { audience } = model();
    audience.setQa(true, true);
    const out = ok(audience.ask(viewer(1), "Held?"));
    expect(types(to(out, "staff"))).toEqual(["question"]);
    expect(to(out, "viewers")).toEqual([]);
    expect(audience.hello("viewer").questions).toEqual([]);
    expect(audience.hello("control").questions.map((q) => q.status)).toEqual(["pending"]);
    expect(code(audience.show("id1"))).toBe("NO_QUESTION");
    expect(code(audience.upvote(viewer(2), "id1"))).toBe("NO_QUESTION");

    expect(to(ok(audience.moderate("id1", "approve")), "viewers")).toEqual([{ v: 1, type: "question", question: expect.objectContaining({ id: "id1", status: "open" }) }]);
    expect(to(ok(audience.show("id1")), "viewers")).toEqual([{ v: 1, type: "shown", question: expect.objectContaining({ id: "id1" }) }]);
    expect(audience.hello("viewer").shown?.id).toBe("id1");

    const hidden = ok(audience.moderate("id1", "hide"));
    expect(to(hidden, "viewers")).toEqual([
      { v: 1, type: "questionGone", id: "id1" },
      { v: 1, type: "shown", question: null },
    ]);
    expect(types(to(hidden, "staff"))).toEqual(["question", "shown"]);
    expect(audience.hello("viewer")).toMatchObject({ questions: [], shown: null });
    expect(code(audience.moderate("nope", "hide"))).toBe("NO_QUESTION");
  });

  test("answered stays visible; un-answering only undoes an answer", () => {
    const { audience } = model();
    audience.setQa(true, false);
    asked(audience, viewer(1));
    ok(audience.moderate("id1", "answer"));
    expect(audience.hello("viewer").questions[0]!.status).toBe("answered");
    ok(audience.moderate("id1", "unanswer"));
    expect(audience.hello("viewer").questions[0]!.status).toBe("open");
  });

  test("a hello carries at most 200 questions: held ones first for the presenter, then the most up-voted, then the newest", () => {
    const { audience, advance } = model({ questionsPerViewerPerMinute: 1_000, questionsPerAddressPerMinute: 1_000 });
    audience.setQa(true, false);
    for (let i = 0; i < 300; i++) {
      advance(1);
      asked(audience, viewer(1), `q${i}`);
    }
    ok(audience.upvote(viewer(2), "id1"));
    audience.setQa(true, true);
    asked(audience, viewer(1), "held");
    const seen = audience.hello("viewer").questions;
    expect(seen).toHaveLength(200);
    expect(seen.slice(0, 3).map((q) => q.text)).toEqual(["q0", "q299", "q298"]);
    expect(audience.hello("presenter").questions.slice(0, 2).map((q) => q.text)).toEqual(["held", "q0"]);
  });
});

describe("up-votes", () => {
  test("once per question per viewer id, capped per address, sent once per tick", () => {
    const { audience } = model();
    audience.setQa(true, false);
    asked(audience, viewer(1));
    const shared = (n: number): Actor => ({ ...viewer(n, "192.0.2.9"), perAddress: 2 });
    // Nothing sent per up-vote: the tick sends it; the event is for the other instances.
    expect(audience.upvote(shared(2), "id1")).toEqual({ ok: true, out: [], tick: true, event: { type: "upvote", questionId: "id1", viewerId: shared(2).viewerId, addressKey: "192.0.2.9" } });
    expect(code(audience.upvote(shared(2), "id1"))).toBe("ALREADY_VOTED");
    expect(code(audience.upvote(shared(3), "id1"))).toBe("ok");
    expect(code(audience.upvote(shared(4), "id1"))).toBe("ADDRESS_LIMIT");
    expect(code(audience.upvote(viewer(1), "gone"))).toBe("NO_QUESTION");
    const tick = audience.tick();
    expect(to(tick, "viewers")).toEqual([{ v: 1, type: "question", question: expect.objectContaining({ id: "id1", votes: 2 }) }]);
    expect(audience.tick()).toEqual([]);
    expect(audience.hello("viewer", shared(2).viewerId).mine).toEqual({ upvoted: ["id1"], voted: [] });
  });
});

describe("messages sent late", () => {
  test("a presenter's change sent after its row write, with a tick in between: refresh puts the current counts after it", () => {
    const { audience } = model();
    ok(audience.setQa(true, false));
    const question = asked(audience, viewer(1));
    // Built now, sent once the row is written...
    const answered = ok(audience.moderate(question.id, "answer"));
    // ... meanwhile an up-vote goes out on a tick.
    ok(audience.upvote(viewer(2), question.id));
    expect(to(audience.tick(), "staff")).toContainEqual({ v: 1, type: "question", question: expect.objectContaining({ id: question.id, votes: 1 }) });
    // The late message says 0 votes: refresh marks the question for the next tick, which says 1.
    expect(to(answered, "staff")).toContainEqual({ v: 1, type: "question", question: expect.objectContaining({ votes: 0, status: "answered" }) });
    expect(audience.refresh(answered)).toBe(true);
    expect(to(audience.tick(), "staff")).toEqual([{ v: 1, type: "question", question: expect.objectContaining({ id: question.id, votes: 1, status: "answered" }) }]);
    // Nothing about a question or results: nothing to refresh.
    expect(audience.refresh(ok(audience.setQa(true, true)))).toBe(false);
  });
});

describe("polls", () => {
  const spec = { question: "Lunch?", options: ["Pizza", "Soup", "Salad"], multiple: false };

  test("a poll's text counts as people count it: 200 characters of question and 100 per option, emoji and CJK included", () => {
    const { audience } = model();
    // The wire allows 4 UTF-16 units per character; the rule is the characters.
    expect(code(audience.pollStart({ question: "漢".repeat(201), options: ["A", "B"], multiple: false }))).toBe("BAD_TEXT");
    expect(code(audience.pollStart({ question: "Q?", options: ["A", "🎉".repeat(101)], multiple: false }))).toBe("BAD_TEXT");
    expect(code(audience.pollStart({ question: "漢".repeat(200), options: ["A", "🎉".repeat(100)], multiple: false }))).toBe("ok");
  });

  test("one open at a time; votes once per viewer id; results to staff each tick, to viewers only when shown", () => {
    const { audience } = model();
    const started = ok(audience.pollStart(spec, { slide: 4 }));
    expect(to(started, "viewers")).toEqual([{ v: 1, type: "poll", poll: { id: "id1", ...spec, status: "open", shown: false, source: { slide: 4 } } }]);
    expect(to(started, "staff")).toContainEqual({ v: 1, type: "pollResults", pollId: "id1", counts: [0, 0, 0], voters: 0 });
    expect(code(audience.pollStart(spec))).toBe("POLL_OPEN");

    expect(code(audience.vote(viewer(1), "id1", [0]))).toBe("ok");
    expect(code(audience.vote(viewer(2), "id1", [0]))).toBe("ok");
    expect(code(audience.vote(viewer(3), "id1", [1]))).toBe("ok");
    expect(code(audience.vote(viewer(1), "id1", [2]))).toBe("ALREADY_VOTED");
    expect(code(audience.vote(viewer(4), "id1", [0, 1]))).toBe("BAD_CHOICE");
    expect(code(audience.vote(viewer(4), "id1", [3]))).toBe("BAD_CHOICE");
    expect(code(audience.vote(viewer(4), "other", [0]))).toBe("NO_POLL");
    const tick = audience.tick();
    expect(to(tick, "staff")).toEqual([{ v: 1, type: "pollResults", pollId: "id1", counts: [2, 1, 0], voters: 3 }]);
    expect(to(tick, "viewers")).toEqual([]);
    expect(audience.hello("viewer", viewer(1).viewerId)).toMatchObject({ results: null, mine: { voted: ["id1"] } });

    const shown = ok(audience.pollShow("id1"));
    expect(to(shown, "viewers")).toContainEqual({ v: 1, type: "pollResults", pollId: "id1", counts: [2, 1, 0], voters: 3 });
    const closed = ok(audience.pollClose("id1"));
    expect(to(closed, "viewers")).toContainEqual({ v: 1, type: "poll", poll: expect.objectContaining({ status: "closed", shown: true }) });
    expect(code(audience.vote(viewer(5), "id1", [0]))).toBe("NO_POLL");
    expect(code(audience.pollClose("id1"))).toBe("NO_POLL");
    expect(audience.hello("viewer").results).toEqual({ pollId: "id1", counts: [2, 1, 0], voters: 3 });
    ok(audience.pollShow(null));
    expect(audience.hello("viewer").results).toBeNull();
    expect(audience.hello("presenter").results?.counts).toEqual([2, 1, 0]);
  });

  test("multiple choice takes 1..n different options; an address votes at most as often as it holds seats", () => {
    const { audience } = model();
    ok(audience.pollStart({ ...spec, multiple: true }));
    const nat = (n: number): Actor => ({ ...viewer(n, "198.51.100.1"), perAddress: 2 });
    expect(code(audience.vote(nat(1), "id1", [0, 2]))).toBe("ok");
    expect(code(audience.vote(nat(2), "id1", [1, 1]))).toBe("BAD_CHOICE");
    expect(code(audience.vote(nat(2), "id1", [2]))).toBe("ok");
    expect(code(audience.vote(nat(3), "id1", [1]))).toBe("ADDRESS_LIMIT");
    expect(audience.hello("presenter").results).toEqual({ pollId: "id1", counts: [1, 0, 2], voters: 2 });
  });

  test("a new poll after the last closes starts its votes afresh", () => {
    const { audience } = model();
    ok(audience.pollStart(spec));
    ok(audience.vote(viewer(1), "id1", [0]));
    ok(audience.pollClose("id1"));
    ok(audience.pollStart({ question: "Again?", options: ["Yes", "No"], multiple: false }));
    expect(code(audience.vote(viewer(1), "id2", [1]))).toBe("ok");
    expect(code(audience.pollShow("id1"))).toBe("NO_POLL");
  });
});

describe("reactions", () => {
  test("summed per tick and per slide; viewers get them only when the presenter shows them", () => {
    const { audience } = model();
    for (let i = 0; i < 50; i++) ok(audience.react(3, { "👍": 2, "🎉": 1 }));
    ok(audience.react(4, { "❓": 1 }));
    const tick = audience.tick();
    expect(to(tick, "staff")).toEqual([
      { v: 1, type: "reactions", page: 3, counts: { "👍": 100, "🎉": 50 } },
      { v: 1, type: "reactions", page: 4, counts: { "❓": 1 } },
    ]);
    expect(to(tick, "viewers")).toEqual([]);
    expect(audience.tick()).toEqual([]);
    ok(audience.setReactionsShown(true));
    ok(audience.react(3, { "👍": 1 }));
    expect(to(audience.tick(), "viewers")).toEqual([{ v: 1, type: "reactions", page: 3, counts: { "👍": 1 } }]);
    expect(audience.hello("presenter").slides).toEqual([
      { page: 3, counts: { "👍": 101, "🎉": 50 } },
      { page: 4, counts: { "❓": 1 } },
    ]);
    expect(audience.hello("viewer").slides).toBeUndefined();
  });
});

describe("snapshot", () => {
  test("survives the row as JSON: questions, up-voters, the open poll's votes, settings, reactions", () => {
    const first = model();
    const a = first.audience;
    a.setQa(true, true);
    asked(a, viewer(1), "Kept?");
    ok(a.moderate("id1", "approve"));
    ok(a.upvote(viewer(2), "id1"));
    ok(a.show("id1"));
    ok(a.pollStart({ question: "Lunch?", options: ["A", "B"], multiple: false }));
    ok(a.vote(viewer(2), "id2", [1]));
    ok(a.react(2, { "👏": 3 }));
    ok(a.setReactionsShown(true));
    const restored = model({}, JSON.parse(JSON.stringify(a.snapshot()))).audience;
    expect(restored.hello("presenter")).toEqual(a.hello("presenter"));
    expect(restored.hello("viewer", viewer(2).viewerId)).toEqual(a.hello("viewer", viewer(2).viewerId));
    expect(code(restored.upvote(viewer(2), "id1"))).toBe("ALREADY_VOTED");
    expect(code(restored.vote(viewer(2), "id2", [0]))).toBe("ALREADY_VOTED");
  });

  test("a damaged or forged snapshot is dropped, not trusted", () => {
    const { audience } = model();
    audience.setQa(true, false);
    asked(audience, viewer(1));
    ok(audience.upvote(viewer(2), "id1"));
    const good = audience.snapshot();
    for (const saved of [{ ...good, v: 2 }, { ...good, viewers: [] }, { ...good, questions: [{ question: { ...good.questions[0]!.question, html: "<b>" }, upvoters: [] }] }, "junk", 42]) {
      expect(model({}, saved).audience.hello("presenter").questions).toEqual([]);
    }
  });

  test("2,000 questions with 100,000 up-votes stay near a megabyte", () => {
    const { audience } = model({ questionsPerViewerPerMinute: 2_000, questionsPerAddressPerMinute: 2_000 });
    audience.setQa(true, false);
    for (let i = 0; i < 2_000; i++) audience.ask(viewer(1), "x".repeat(280));
    for (let n = 0; n < 1_000; n++) for (let q = 1; q <= 100; q++) ok(audience.upvote({ ...viewer(n, `a${n}`), viewerId: `viewer-id-of-22chars-${n}` }, `id${q}`));
    expect(code(audience.upvote(viewer(5000), "id200"))).toBe("QA_FULL");
    const bytes = new TextEncoder().encode(JSON.stringify(audience.snapshot())).byteLength;
    expect(bytes).toBeLessThan(1.5 * 1024 * 1024);
    // ~0.6 s alone; 6 s seen while other suites loaded the 2-vCPU machine: ten times that.
  }, 60_000);
});
