/**
 * The presenter's side of the audience talking back, as pure logic: the Questions
 * panel's rows and buttons, Shift+Q's top question, the poll chart and its text, the poll form's
 * checks, the poll sidecar's once-per-talk-per-slide rule, what the projector may get, the
 * export (CSV escaping, formula injection, shape) — and, on a tiny recording DOM, that the
 * projector's question card makes hostile text a text node and never an element.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { emptyAudience, reduceAudience, type AudienceState } from "../../client/src/live/audience-state.ts";
import { emptyTalk, mergeTalk, talkCsv, talkJson } from "../../client/src/live/talk-export.ts";
import { csvCell } from "../../client/src/lib/csv.ts";
import { chartText, pollBars } from "../../client/src/live/poll-bars.ts";
import { holdOrder } from "../../client/src/live/question-order.ts";
import { checkPollDraft, floatsOf, panelQuestions, projectedTalk, questionRow, reactionTotal, sidecarPollToOpen, toggleTopShown, topQuestion, withOpenedSource } from "../../client/src/live/talk-model.ts";
import type { LiveQuestionT } from "../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../src/shared/live-protocol.ts";

const q = (id: string, votes: number, at: number, status: LiveQuestionT["status"] = "open", name?: string): LiveQuestionT => ({ id, text: `question ${id}`, votes, at, status, ...(name ? { name } : {}) });
const apply = (messages: unknown[], from: AudienceState = emptyAudience()) => messages.reduce((s: AudienceState, m) => reduceAudience(s, m as LiveServerMessageT).state, from);
const hello = (extra: Record<string, unknown> = {}) => ({ v: 1, type: "hello", audience: { qa: { open: true, moderated: false }, questions: [], shown: null, poll: null, results: null, reactionsShown: false, ...extra } });
const poll = { id: "p1", question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: false, status: "open", shown: false };

describe("the Questions panel", () => {
  const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);
  test("held questions come first, then by votes (ties: newest) or newest; hidden ones are gone; each row has its buttons", () => {
    const s = apply([hello({ questions: [q("a", 1, 10), q("b", 5, 20), q("c", 1, 30), q("h", 9, 40, "hidden"), q("p", 0, 5, "pending"), q("d", 3, 50, "answered")] }), { v: 1, type: "shown", question: q("b", 5, 20) }]);
    const votes = panelQuestions(s, "votes");
    expect(ids(votes)).toEqual(["p", "b", "d", "c", "a"]);
    expect(ids(panelQuestions(s, "newest"))).toEqual(["p", "d", "c", "b", "a"]);
    const by = Object.fromEntries(votes.map((x) => [x.id, questionRow(s, x)]));
    expect(by.p!.buttons).toEqual(["approve", "hide"]);
    expect(by.b!.buttons).toEqual(["answer", "dismiss", "hide"]);
    expect(by.b!.shown).toBe(true);
    expect(by.d!.buttons).toEqual(["unanswer", "show", "hide"]);
    expect(by.a!.buttons).toEqual(["answer", "show", "hide"]);
    expect(by.a).toMatchObject({ text: "question a", name: "", votes: 1, status: "open", shown: false });
  });

  test("the votes the panel sorts by are the ones it is given (the steady order's, between re-sorts), not the live counts", () => {
    const s = apply([hello({ questions: [q("a", 1, 10), q("b", 5, 20), q("c", 2, 30)] })]);
    const frozen: Record<string, number> = { a: 4, b: 0, c: 2 };
    expect(ids(panelQuestions(s, "votes", (x) => frozen[x.id] ?? x.votes))).toEqual(["a", "c", "b"]);
    // The row still says the live count.
    expect(questionRow(s, panelQuestions(s, "votes")[0]!).votes).toBe(5);
  });

  test("under the pointer the rows hold their drawn order: changed ones stay put, new ones come last, gone ones leave", () => {
    let s = apply([hello({ questions: [q("a", 1, 10), q("b", 0, 20), q("c", 0, 30)] })]);
    const drawn = ids(panelQuestions(s, "votes"));
    expect(drawn).toEqual(["a", "c", "b"]);
    s = apply([{ v: 1, type: "question", question: q("b", 5, 20) }, { v: 1, type: "question", question: q("d", 9, 40) }, { v: 1, type: "questionGone", id: "c" }], s);
    expect(ids(panelQuestions(s, "votes"))).toEqual(["d", "b", "a"]);
    const held = holdOrder(panelQuestions(s, "votes"), drawn, (x) => x.id);
    expect(held.map((x) => [x.id, x.votes])).toEqual([["a", 1], ["b", 5], ["d", 9]]);
  });

  test("Shift+Q shows the most voted open question, takes a shown one away, and does nothing with none", () => {
    const s = apply([hello({ questions: [q("a", 1, 10), q("b", 4, 20, "answered"), q("c", 2, 30), q("p", 9, 40, "pending"), q("d", 2, 35)] })]);
    expect(topQuestion(s)?.id).toBe("d");
    expect(toggleTopShown(s)).toBe("d");
    expect(toggleTopShown(apply([{ v: 1, type: "shown", question: q("a", 1, 10) }], s))).toBeNull();
    expect(toggleTopShown(apply([hello()]))).toBeUndefined();
  });
});

describe("polls", () => {
  test("the chart: counts and whole percentages of the voters, in option order, said in one sentence", () => {
    const bars = pollBars({ options: ["Tabs", "Spaces", "Both"] }, { counts: [2, 1], voters: 3 });
    expect(bars).toEqual([
      { option: "Tabs", count: 2, percent: 67, fill: 1 },
      { option: "Spaces", count: 1, percent: 33, fill: 0.5 },
      { option: "Both", count: 0, percent: 0, fill: 0 },
    ]);
    expect(chartText("Tabs or spaces?", bars, 3)).toBe("Tabs or spaces? — 3 voters. Tabs: 2 (67%); Spaces: 1 (33%); Both: 0 (0%).");
    expect(pollBars({ options: ["A", "B"] }, null).map((b) => b.percent)).toEqual([0, 0]);
  });

  test("the form: trimmed, blank options dropped, 2–6 distinct options within the protocol's lengths", () => {
    expect(checkPollDraft({ question: "  Lunch? ", options: ["Pizza ", "", " Soup"], multiple: true })).toEqual({ ok: true, poll: { question: "Lunch?", options: ["Pizza", "Soup"], multiple: true } });
    expect(checkPollDraft({ question: " ", options: ["a", "b"], multiple: false }).ok).toBe(false);
    expect(checkPollDraft({ question: "Q", options: ["a", " "], multiple: false })).toEqual({ ok: false, problem: "Give at least 2 options." });
    expect(checkPollDraft({ question: "Q", options: ["a", "b", "c", "d", "e", "f", "g"], multiple: false })).toEqual({ ok: false, problem: "At most 6 options." });
    expect(checkPollDraft({ question: "Q", options: ["a", "a"], multiple: false })).toEqual({ ok: false, problem: "Two options are the same." });
    expect(checkPollDraft({ question: "x".repeat(201), options: ["a", "b"], multiple: false }).ok).toBe(false);
    // Counted as people see them: 200 emoji are 200 characters.
    expect(checkPollDraft({ question: "🎉".repeat(200), options: ["a", "b"], multiple: false }).ok).toBe(true);
  });

  test("a deck's poll opens on its slide once per talk, only live, only when no poll is open, never reopened on a revisit", () => {
    const polls = [{ slide: 2, question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: false }];
    const live = apply([hello()]);
    const opened = new Set<number>();
    expect(sidecarPollToOpen(1, polls, opened, live, true)).toBeNull();
    expect(sidecarPollToOpen(2, polls, opened, live, false)).toBeNull();
    expect(sidecarPollToOpen(2, polls, opened, emptyAudience(), true)).toBeNull();
    expect(sidecarPollToOpen(2, undefined, opened, live, true)).toBeNull();
    expect(sidecarPollToOpen(2, polls, opened, apply([{ v: 1, type: "poll", poll }], live), true)).toBeNull();
    expect(sidecarPollToOpen(2, polls, opened, live, true)).toEqual(polls[0]!);
    opened.add(2);
    const closed = apply([{ v: 1, type: "poll", poll: { ...poll, status: "closed", source: { slide: 2 } } }], live);
    expect(sidecarPollToOpen(2, polls, opened, closed, true)).toBeNull();
    // After a reload the set is empty, but the server's hello still names the slide's closed poll.
    expect(sidecarPollToOpen(2, polls, new Set(), closed, true)).toBeNull();

    // A remote opened slide 2's poll, then a poll typed in the panel replaced it: slide 2's is not opened again.
    const byRemote = apply([{ v: 1, type: "poll", poll: { ...poll, status: "open", source: { slide: 2 } } }], live);
    const seen = withOpenedSource(new Set(), byRemote);
    expect([...seen]).toEqual([2]);
    const typed = apply([{ v: 1, type: "poll", poll: { ...poll, id: "p-typed", status: "closed" } }], byRemote);
    expect(sidecarPollToOpen(2, polls, withOpenedSource(seen, typed), typed, true)).toBeNull();
    expect(sidecarPollToOpen(2, polls, new Set(), typed, true)).toEqual(polls[0]!);
  });
});

describe("the projector", () => {
  test("it gets one question's text and name, a poll's results only while shown, and whether reactions float — nothing else", () => {
    let s = apply([hello({ questions: [q("a", 3, 10, "open", "Ada")] }), { v: 1, type: "shown", question: q("a", 3, 10, "open", "Ada") }, { v: 1, type: "poll", poll }, { v: 1, type: "pollResults", pollId: "p1", counts: [2, 1], voters: 3 }]);
    expect(projectedTalk(s)).toEqual({ question: { text: "question a", name: "Ada" }, poll: null, reactions: false });
    s = apply([{ v: 1, type: "poll", poll: { ...poll, status: "closed", shown: true } }, { v: 1, type: "reactionsShow", show: true }, { v: 1, type: "shown", question: null }], s);
    expect(projectedTalk(s)).toEqual({ question: null, poll: { question: "Tabs or spaces?", options: ["Tabs", "Spaces"], counts: [2, 1], voters: 3, closed: true }, reactions: true });
    expect(Object.keys(projectedTalk(s).question ?? { text: "" }).sort()).toEqual(["text"]);
  });

  test("reactions: a slide's total, and one float per tap up to a cap", () => {
    expect(reactionTotal({ "👍": 3, "🎉": 2 })).toBe(5);
    expect(reactionTotal(undefined)).toBe(0);
    expect(floatsOf({ "👍": 2, "❓": 1 }, 10)).toEqual(["👍", "👍", "❓"]);
    expect(floatsOf({ "👍": 50 }, 12)).toHaveLength(12);
  });
});

describe("export", () => {
  test("CSV cells: quotes doubled, commas and line breaks quoted, formula-looking text defused", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("\"'\tx\"");
    // Numbers are numbers: a negative count is not text to defuse.
    expect(csvCell(-1)).toBe("-1");
    expect(csvCell(true)).toBe("true");
  });

  test("the record gathers questions (hidden ones marked), every poll of the talk and reactions per slide; CSV and JSON carry them", () => {
    let s = apply([hello({ questions: [q("a", 2, Date.UTC(2026, 10, 26, 8), "answered", "Ada"), q("b", 0, Date.UTC(2026, 10, 26, 9))] })]);
    let record = mergeTalk(emptyTalk("deck1", "ABC234", 1), s, 2);
    s = apply([{ v: 1, type: "poll", poll: { ...poll, source: { slide: 2 } } }, { v: 1, type: "pollResults", pollId: "p1", counts: [2, 1], voters: 3 }, { v: 1, type: "reactions", page: 2, counts: { "👍": 3 } }, { v: 1, type: "reactions", page: 2, counts: { "👍": 1, "❓": 1 } }], s);
    record = mergeTalk(record, s, 3);
    s = apply([{ v: 1, type: "poll", poll: { id: "p2", question: "Again?", options: ["Yes", "No"], multiple: true, status: "open", shown: false } }, { v: 1, type: "question", question: { ...q("b", 0, Date.UTC(2026, 10, 26, 9)), status: "hidden", text: "=cmd|' /C calc'!A0" } }], s);
    record = mergeTalk(record, s, 4);
    expect(record.updatedAt).toBe(4);
    expect(record.questions.map((x) => [x.id, x.answered, x.hidden])).toEqual([["a", true, false], ["b", false, true]]);
    expect(record.polls).toEqual([
      { id: "p1", question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: false, counts: [2, 1], voters: 3, slide: 2 },
      { id: "p2", question: "Again?", options: ["Yes", "No"], multiple: true, counts: [0, 0], voters: 0 },
    ]);
    expect(record.reactions).toEqual([{ page: 2, counts: { "👍": 4, "❓": 1 } }]);

    const csv = talkCsv(record, (page) => `S${page}`);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("question,name,votes,answered,hidden,asked_at");
    expect(lines[1]).toBe("question a,Ada,2,true,false,2026-11-26T08:00:00.000Z");
    expect(lines[2]).toBe("'=cmd|' /C calc'!A0,,0,false,true,2026-11-26T09:00:00.000Z");
    expect(lines).toContain("Tabs or spaces?,Tabs,2,3,false,2");
    expect(lines).toContain("Tabs or spaces?,Spaces,1,3,false,2");
    expect(lines).toContain("page,slide,👍,👏,❤️,😂,🎉,❓,total");
    expect(lines).toContain("2,S2,4,0,0,0,0,1,5");
    expect(csv.endsWith("\r\n")).toBe(true);

    const json = JSON.parse(talkJson(record));
    expect(json.code).toBe("ABC234");
    expect(json.questions[0]).toEqual({ text: "question a", name: "Ada", votes: 2, answered: true, hidden: false, askedAt: "2026-11-26T08:00:00.000Z" });
    expect(json.polls[0]).toEqual({ question: "Tabs or spaces?", multiple: false, voters: 3, slide: 2, options: [{ option: "Tabs", votes: 2 }, { option: "Spaces", votes: 1 }] });
    expect(json.reactions).toEqual([{ page: 2, counts: { "👍": 4, "❓": 1 } }]);
  });
});

// ---- a tiny recording DOM: enough for lib/dom's h() ----------------------------------------

interface FakeNode { tag?: string; data?: string; children: FakeNode[]; attrs: Record<string, string>; className?: string; style: Record<string, string>; parent?: FakeNode | null }
const created: string[] = [];
function fakeElement(tag: string): FakeNode & Record<string, unknown> {
  const el: FakeNode & Record<string, unknown> = {
    tag, children: [], attrs: {}, style: {}, parent: null,
    setAttribute(k: string, v: string) { el.attrs[k] = v; },
    addEventListener() {},
    appendChild(child: FakeNode) { child.parent = el; el.children.push(child); return child; },
    append(...children: FakeNode[]) { for (const c of children) (el.appendChild as (c: FakeNode) => void)(c); },
    insertBefore(child: FakeNode, before: FakeNode | null) { child.parent = el; const at = before ? el.children.indexOf(before) : -1; if (at < 0) el.children.push(child); else el.children.splice(at, 0, child); return child; },
    remove() { if (el.parent) el.parent.children = el.parent.children.filter((c) => c !== el); },
    replaceChildren() { el.children = []; },
  };
  Object.defineProperty(el, "innerHTML", { set: () => { throw new Error("innerHTML was set"); } });
  return el;
}
const textOf = (n: FakeNode): string => n.data ?? n.children.map(textOf).join("");
const tags = (n: FakeNode): string[] => (n.tag ? [n.tag, ...n.children.flatMap(tags)] : []);

describe("the projector's question card", () => {
  const saved = (globalThis as { document?: unknown }).document;
  afterEach(() => {
    (globalThis as { document?: unknown }).document = saved;
  });

  test("a question of HTML is shown as its text: no element comes of it, and innerHTML is never used", async () => {
    (globalThis as { document?: unknown }).document = {
      createElement: (tag: string) => (created.push(tag), fakeElement(tag)),
      createTextNode: (data: string) => ({ data, children: [], attrs: {}, style: {} }),
    };
    const { TalkProjectionView } = await import("../../client/src/live/talk-projection.ts");
    const host = fakeElement("main");
    const view = new TalkProjectionView(host as unknown as HTMLElement);
    const hostile = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
    view.show({ question: { text: hostile, name: "<b>Eve</b>" }, poll: { question: "<svg onload=alert(3)>", options: ["<i>a</i>", "b"], counts: [1, 0], voters: 1, closed: false }, reactions: false });
    expect(created).not.toContain("img");
    expect(created).not.toContain("script");
    expect(created).not.toContain("svg");
    expect(created).not.toContain("b");
    expect(created).not.toContain("i");
    expect(tags(host).filter((t) => ["img", "script", "svg", "b", "i"].includes(t))).toEqual([]);
    const card = host.children.find((c) => c.attrs.id === "talk-question")!;
    expect(textOf(card)).toBe(hostile + "<b>Eve</b>");
    expect(textOf(host.children.find((c) => c.attrs.id === "talk-poll")!)).toContain("<svg onload=alert(3)>");
    // Dismissed: the card leaves.
    view.show({ question: null, poll: null, reactions: false });
    expect(host.children.map((c) => c.attrs.id)).toEqual(["talk-reactions"]);
  });
});
