/**
 * The audience's one reducer (Audience.apply, src/live/audience/events.ts) between two copies,
 * as two instances serving one talk hold them: every change one copy accepts, applied to the
 * other, leaves both equal (row snapshot and each role's hello) and tells the other's sockets
 * what the first told its own; applying an event twice changes nothing; crossing votes of one
 * viewer id end the same on both whatever the order; rate limits count questions asked on the
 * other copy; a vote taken before a close that crossed it counts on both.
 */
import { describe, expect, test } from "bun:test";
import { type Actor, Audience, type AudienceResult } from "../../src/live/audience/model.ts";
import type { AudienceEvent } from "../../src/live/audience/events.ts";
import { MAX_LIVE_MESSAGE_BYTES } from "../../src/core/live.ts";

function copy(prefix: string) {
  let ids = 0;
  return new Audience({ clock: () => 1_000_000, newId: () => `${prefix}${++ids}` });
}
const viewer = (n: number, address = `10.0.0.${n}`): Actor => ({ viewerId: `viewer-${String(n).padStart(10, "0")}`, addressKey: address, perAddress: 5 });
/** The accepted change, or the refusal's code. */
function event(result: AudienceResult): AudienceEvent {
  if (!result.ok) throw new Error(`refused: ${result.code}`);
  if (!result.event) throw new Error("no event");
  return result.event;
}
const code = (result: AudienceResult) => (result.ok ? "ok" : result.code);
const same = (a: Audience, b: Audience) => {
  expect(b.snapshot()).toEqual(a.snapshot());
  for (const role of ["presenter", "viewer"] as const) expect(b.hello(role, viewer(1).viewerId)).toEqual(a.hello(role, viewer(1).viewerId));
};

describe("two copies of one talk's audience", () => {
  test("each change one accepts, applied to the other, leaves both equal and tells the other's sockets the same", () => {
    const a = copy("a");
    const b = copy("b");
    const through = (result: AudienceResult) => {
      if (!result.ok) throw new Error(`refused: ${result.code}`);
      const applied = b.apply(event(result));
      expect(applied.out).toEqual(result.out);
      return applied;
    };
    through(a.setQa(true, false));
    through(a.ask(viewer(1), "Why PDF?", "Ada"));
    through(a.ask(viewer(2), "And slides?"));
    expect(through(a.upvote(viewer(3), "a1")).tick).toBe(true);
    expect(b.tick()).toEqual(a.tick());
    through(a.pollStart({ question: "Tabs?", options: ["Tabs", "Spaces"], multiple: false }));
    through(a.vote(viewer(1), "a3", [0]));
    through(a.vote(viewer(2), "a3", [1]));
    through(a.vote(viewer(3), "a3", [0]));
    expect(b.tick()).toEqual(a.tick());
    through(a.show("a1"));
    through(a.moderate("a1", "hide"));
    through(a.pollShow("a3"));
    through(a.pollClose("a3"));
    through(a.setReactionsShown(true));
    same(a, b);
    expect(b.hello("presenter").results).toEqual({ pollId: "a3", counts: [2, 1], voters: 3 });
    expect(b.hello("viewer", viewer(1).viewerId).mine).toEqual({ upvoted: [], voted: ["a3"] });
    // The other way too: B's presenter approves nothing, B's viewer asks; A learns it.
    const asked = b.ask(viewer(9), "From B?");
    a.apply(event(asked));
    expect(a.hello("presenter").questions.map((q) => q.id)).toContain("b1");
  });

  test("reactions go over as one sum per tick and add up on the other copy", () => {
    const a = copy("a");
    const b = copy("b");
    for (let i = 0; i < 40; i++) a.react(2, { "👍": 2, "🎉": 1 });
    a.react(3, { "❓": 1 });
    const sums = a.takeReactions();
    expect(sums).toEqual({ type: "reactions", slides: [[2, { "👍": 80, "🎉": 40 }], [3, { "❓": 1 }]] });
    expect(a.takeReactions()).toBeNull();
    b.react(2, { "👍": 1 });
    expect(b.apply(sums!).tick).toBe(true);
    expect(b.tick().map((o) => o.message)).toEqual([
      { v: 1, type: "reactions", page: 2, counts: { "👍": 81, "🎉": 40 } },
      { v: 1, type: "reactions", page: 3, counts: { "❓": 1 } },
    ]);
    // B's own taps go over from B; what A sent B is not sent back.
    expect(b.takeReactions()).toEqual({ type: "reactions", slides: [[2, { "👍": 1 }]] });
    expect(b.hello("presenter").slides).toEqual([
      { page: 2, counts: { "👍": 81, "🎉": 40 } },
      { page: 3, counts: { "❓": 1 } },
    ]);
  });

  test("an event applied twice changes nothing", () => {
    const a = copy("a");
    const b = copy("b");
    const events = [event(a.setQa(true, false)), event(a.ask(viewer(1), "Once?")), event(a.upvote(viewer(2), "a1")), event(a.pollStart({ question: "Q?", options: ["x", "y"], multiple: true })), event(a.vote(viewer(2), "a2", [0, 1]))];
    for (const e of [...events, ...events]) b.apply(e);
    a.tick();
    b.tick();
    same(a, b);
    expect(b.hello("presenter").questions[0]!.votes).toBe(1);
    expect(b.hello("presenter").results?.voters).toBe(1);
  });

  test("one viewer id voting on both copies at once: both keep the same vote, whichever arrives first", () => {
    const a = copy("a");
    const b = copy("b");
    b.apply(event(a.pollStart({ question: "Q?", options: ["x", "y", "z"], multiple: false })));
    const onA = event(a.vote(viewer(1), "a1", [2]));
    const onB = event(b.vote(viewer(1), "a1", [1]));
    a.apply(onB);
    b.apply(onA);
    same(a, b);
    expect(a.hello("presenter").results).toEqual({ pollId: "a1", counts: [0, 1, 0], voters: 1 });
    // Once either copy holds a vote of this id, a second one is refused there.
    expect(code(a.vote(viewer(1), "a1", [0]))).toBe("ALREADY_VOTED");
    expect(code(b.vote(viewer(1), "a1", [0]))).toBe("ALREADY_VOTED");
  });

  test("questions asked on the other copy count against the viewer's and the address's rate", () => {
    const a = copy("a");
    const b = copy("b");
    b.apply(event(a.setQa(true, false)));
    for (let i = 0; i < 5; i++) b.apply(event(a.ask(viewer(1), `q${i}`)));
    expect(code(b.ask(viewer(1), "sixth"))).toBe("QUESTION_RATE");
    // An up-vote on A by an address counts against that address on B.
    const shared = (n: number): Actor => ({ ...viewer(n, "192.0.2.9"), perAddress: 1 });
    b.apply(event(a.upvote(shared(2), "a1")));
    expect(code(b.upvote(shared(3), "a1"))).toBe("ADDRESS_LIMIT");
  });

  test("a vote taken before a close that crossed it on the bus counts on both copies", () => {
    const a = copy("a");
    const b = copy("b");
    b.apply(event(a.pollStart({ question: "Q?", options: ["x", "y"], multiple: false })));
    const vote = event(b.vote(viewer(1), "a1", [1]));
    const close = event(a.pollClose("a1"));
    a.apply(vote);
    b.apply(close);
    a.tick();
    b.tick();
    same(a, b);
    expect(a.hello("presenter").results).toEqual({ pollId: "a1", counts: [0, 1], voters: 1 });
  });

  test("an event about a question or poll this copy does not hold changes nothing", () => {
    const b = copy("b");
    const before = b.snapshot();
    for (const e of [
      { type: "upvote", questionId: "nope", viewerId: "v", addressKey: "k" },
      { type: "vote", pollId: "nope", choices: [0], viewerId: "v", addressKey: "k" },
      { type: "moderate", questionId: "nope", action: "hide" },
      { type: "pollClose", pollId: "nope" },
      { type: "pollShow", pollId: "nope" },
    ] as AudienceEvent[]) {
      expect(b.apply(e).out).toEqual([]);
    }
    expect(b.snapshot()).toEqual(before);
  });
});

/** Each role's view, questions by id (two copies may hold them in different orders). */
const view = (audience: Audience) => {
  const staff = audience.hello("presenter");
  return { ...staff, questions: [...staff.questions].sort((x, y) => x.id.localeCompare(y.id)), mine: audience.hello("viewer", viewer(1).viewerId).mine };
};

describe("a copy loaded late catches up from the row (Audience.merge)", () => {
  test("the row's newer copy merged in: nothing either copy took is lost; this copy's sockets hear what was new to it", () => {
    const a = copy("a");
    a.setQa(true, false);
    a.ask(viewer(1), "In the row");
    a.pollStart({ question: "Q?", options: ["x", "y"], multiple: false });
    // B loads from the row as it was then; A goes on taking changes B never hears of.
    const b = copy("b");
    b.merge(JSON.parse(JSON.stringify(a.snapshot())));
    a.ask(viewer(2), "Not yet in the row");
    a.upvote(viewer(3), "a1");
    a.vote(viewer(1), "a2", [0]);
    a.moderate("a1", "answer");
    for (let i = 0; i < 3; i++) a.react(2, { "👍": 1 });
    // Meanwhile B takes changes of its own, which A has not heard of either.
    const fromB = [event(b.ask(viewer(4), "Asked on B")), event(b.vote(viewer(4), "a2", [1])), event(b.upvote(viewer(5), "a1"))];
    b.react(2, { "👍": 1 });

    const { out } = b.merge(JSON.parse(JSON.stringify(a.snapshot())));
    const messages = out.map((o) => `${o.to}:${o.message.type}:${"question" in o.message ? (o.message.question?.id ?? "") : ""}`);
    expect(messages).toEqual(expect.arrayContaining(["staff:question:a1", "viewers:question:a1", "staff:question:a3", "viewers:question:a3"]));
    // A hears of B's changes on the bus as usual: both copies now hold everything.
    for (const e of fromB) a.apply(e);
    a.tick();
    b.tick();
    expect(view(b)).toEqual({ ...view(a), slides: [{ page: 2, counts: { "👍": 3 } }] });
    expect(view(b).questions.map((q) => [q.text, q.votes, q.status])).toEqual([
      ["In the row", 2, "answered"],
      ["Not yet in the row", 0, "open"],
      ["Asked on B", 0, "open"],
    ]);
    expect(view(b).results).toEqual({ pollId: "a2", counts: [1, 1], voters: 2 });
  });

  test("the presenter's settings come from the copy that applied more of the presenter's changes; moderation from the one that applied more to that question", () => {
    const a = copy("a");
    a.setQa(true, false);
    a.ask(viewer(1), "Hide me");
    const b = copy("b");
    b.merge(JSON.parse(JSON.stringify(a.snapshot())));
    a.moderate("a1", "hide");
    a.pollStart({ question: "Q?", options: ["x", "y"], multiple: false });
    a.setReactionsShown(true);
    const { out } = b.merge(JSON.parse(JSON.stringify(a.snapshot())));
    expect(out).toContainEqual({ to: "viewers", message: { v: 1, type: "questionGone", id: "a1" } });
    expect(out).toContainEqual({ to: "viewers", message: { v: 1, type: "reactionsShow", show: true } });
    expect(view(b)).toEqual(view(a));
    // An older copy merged into a newer one changes nothing.
    const old = copy("c");
    old.merge(JSON.parse(JSON.stringify(copy("d").snapshot())));
    expect(a.merge(JSON.parse(JSON.stringify(old.snapshot()))).out).toEqual([]);
    expect(view(a).poll?.status).toBe("open");
  });

  test("two holders' copies merged in either order give the same copy", () => {
    const a = copy("a");
    const c = copy("c");
    c.apply(event(a.setQa(true, false)));
    c.apply(event(a.pollStart({ question: "Q?", options: ["x", "y"], multiple: false })));
    a.ask(viewer(1), "Only A has it");
    c.ask(viewer(2), "Only C has it");
    expect(code(a.vote(viewer(3), "a1", [0]))).toBe("ok");
    expect(code(c.vote(viewer(3), "a1", [1]))).toBe("ok");
    const [sa, sc] = [a, c].map((x) => JSON.parse(JSON.stringify(x.snapshot())));
    const one = copy("b");
    one.merge(sa);
    one.merge(sc);
    const two = copy("b");
    two.merge(sc);
    two.merge(sa);
    expect(view(one)).toEqual(view(two));
    expect(view(one).questions.map((q) => q.text).sort()).toEqual(["Only A has it", "Only C has it"]);
    // One viewer id voted on both: the same vote kept whichever copy came first.
    expect(view(one).results).toEqual({ pollId: "a1", counts: [1, 0], voters: 1 });
  });
});

test("the largest events fit the bus: a poll and a question of characters JSON spells in 6 bytes each stay under 7,900 bytes", () => {
  const a = copy("a");
  a.setQa(true, false);
  // A lone surrogate is one character as the rules count and six bytes as JSON (\ud800).
  const worst = (n: number) => "\ud800".repeat(n);
  const poll = event(a.pollStart({ question: worst(200), options: Array.from({ length: 6 }, () => worst(100)), multiple: true }));
  const question = event(a.ask(viewer(1), worst(280), worst(40)));
  for (const e of [poll, question]) {
    const envelope = JSON.stringify({ from: "0123456789abcdef", kind: "audience", event: e });
    expect(Buffer.byteLength(envelope)).toBeLessThan(MAX_LIVE_MESSAGE_BYTES);
  }
});
