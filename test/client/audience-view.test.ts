import { describe, expect, test } from "bun:test";
import { ballot, patchQuestionItem, questionItem, shownCard } from "../../client/src/live/audience-view.ts";
import { pollChart } from "../../client/src/live/poll-chart-view.ts";
import { barText, pollBars } from "../../client/src/live/poll-bars.ts";
import type { LivePollT, LiveQuestionT } from "../../src/shared/live-audience-protocol.ts";
import { fakeDocumentForFile, type FakeElement } from "../helpers/fake-dom.ts";

const HOSTILE = `<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=2</script>`;
const question = (patch: Partial<LiveQuestionT> = {}): LiveQuestionT => ({ id: "q1", text: "How?", votes: 0, at: 1, status: "open", ...patch });
const poll = (patch: Partial<LivePollT> = {}): LivePollT => ({ id: "p1", question: "Which?", options: ["A", "B", "C"], multiple: false, status: "open", shown: false, ...patch });

const fakeDoc = fakeDocumentForFile();

const el = (node: unknown) => node as unknown as FakeElement;
const tags = (node: unknown) => el(node).descendants().map((e) => e.tagName);

describe("the audience's items are drawn with text only", () => {
  test("a question whose text and name are HTML creates no img or script: the characters are its text", () => {
    fakeDoc().created.length = 0;
    const li = questionItem(question({ text: HOSTILE, name: `<b onmouseover=alert(1)>Eve</b>` }), { canUpvote: true, onUpvote: () => {} });
    expect(fakeDoc().created).not.toContain("img");
    expect(fakeDoc().created).not.toContain("script");
    expect(fakeDoc().created).not.toContain("b");
    expect(tags(li)).not.toContain("img");
    expect(li.textContent).toContain(HOSTILE);
    expect(li.textContent).toContain("<b onmouseover=alert(1)>Eve</b>");
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  test("the shown card, a poll's ballot and its chart take hostile text as text too", () => {
    fakeDoc().created.length = 0;
    const hostilePoll = poll({ question: HOSTILE, options: [HOSTILE, "<svg onload=alert(1)>"] });
    const nodes = [shownCard(question({ text: HOSTILE, name: HOSTILE })), ballot(hostilePoll, { voted: false, onVote: () => {} }), pollChart(hostilePoll, { counts: [1, 0], voters: 1 })];
    for (const created of ["img", "script", "svg"]) expect(fakeDoc().created).not.toContain(created);
    for (const node of nodes) expect(node.textContent).toContain(HOSTILE);
    expect(nodes[2]!.textContent).toContain("<svg onload=alert(1)>");
  });

  test("an up-vote button says the count; it is pressed and disabled once up-voted, disabled while Q&A is closed", () => {
    const button = (li: HTMLLIElement) => el(li).descendants().find((e) => e.tagName === "button")!;
    const fresh = button(questionItem(question({ votes: 1 }), { canUpvote: true, onUpvote: () => {} }));
    expect(fresh.getAttribute("aria-label")).toBe("Up-vote (1 vote)");
    expect(fresh.hasAttribute("disabled")).toBe(false);
    const mine = button(questionItem(question({ votes: 2 }), { upvoted: true, canUpvote: true, onUpvote: () => {} }));
    expect(mine.getAttribute("aria-pressed")).toBe("true");
    expect(mine.getAttribute("aria-label")).toBe("Up-voted (2 votes)");
    expect(mine.hasAttribute("disabled")).toBe(true);
    expect(button(questionItem(question(), { canUpvote: false, onUpvote: () => {} })).hasAttribute("disabled")).toBe(true);
  });

  test("an answered question is marked; the remote's read-only row has no up-vote button but its own actions", () => {
    const answered = questionItem(question({ status: "answered", name: "Ann" }));
    expect(answered.getAttribute("data-status")).toBe("answered");
    expect(answered.textContent).toContain("Answered");
    expect(tags(answered)).not.toContain("button");
    const actions = [document.createElement("button")];
    expect(tags(questionItem(question(), { actions }))).toContain("button");
  });

  test("a ballot has a radio per option for a single-choice poll, checkboxes for a multiple one, and says Voted instead of Vote once cast", () => {
    const inputs = (form: HTMLFormElement) => el(form).descendants().filter((e) => e.tagName === "input");
    expect(inputs(ballot(poll(), { voted: false, onVote: () => {} })).map((i) => i.getAttribute("type"))).toEqual(["radio", "radio", "radio"]);
    const multiple = ballot(poll({ multiple: true }), { voted: false, onVote: () => {} });
    expect(inputs(multiple).map((i) => i.getAttribute("type"))).toEqual(["checkbox", "checkbox", "checkbox"]);
    expect(multiple.textContent).toContain("Vote");
    const voted = ballot(poll(), { voted: true, onVote: () => {} });
    expect(voted.textContent).toContain("Voted");
    expect(inputs(voted).every((i) => i.hasAttribute("disabled"))).toBe(true);
    // What this viewer chose stays checked once cast.
    const chosen = ballot(poll({ multiple: true }), { voted: true, chosen: [0, 2], onVote: () => {} });
    expect(inputs(chosen).map((i) => i.hasAttribute("checked"))).toEqual([true, false, true]);
  });

  test("the chart's rows say option, count and share as text; the fill is sized through style, not markup", () => {
    const chart = pollChart(poll(), { counts: [2, 1, 0], voters: 3 });
    const rows = el(chart).descendants().filter((e) => e.tagName === "li");
    expect(rows.map((r) => r.getAttribute("aria-label"))).toEqual(["A: 2 votes, 67%", "B: 1 vote, 33%", "C: 0 votes, 0%"]);
    const fills = el(chart).descendants().filter((e) => e.className === "poll-bar-fill");
    expect(fills.map((f) => f.style.width)).toEqual(["100.0%", "50.0%", "0.0%"]);
    expect(chart.textContent).toContain("3 voters");
  });
});

describe("a drawn question brought up to date", () => {
  test("votes and this viewer's up-vote change in place; a new status or text makes the item anew", () => {
    const li = questionItem(question({ votes: 1 }), { canUpvote: true, onUpvote: () => {} });
    const button = el(li).querySelector(".upvote")!;
    expect(patchQuestionItem(li, question({ votes: 5 }), question({ votes: 1 }), { canUpvote: true, upvoted: true, onUpvote: () => {} })).toBe(true);
    expect(el(li).querySelector(".upvote")).toBe(button);
    expect(button.querySelector(".upvote-count")!.textContent).toBe("5");
    expect([button.getAttribute("aria-pressed"), button.getAttribute("aria-label"), button.disabled]).toEqual(["true", "Up-voted (5 votes)", true]);
    expect(patchQuestionItem(li, question({ votes: 5, status: "answered" }), question({ votes: 5 }))).toBe(false);
    expect(patchQuestionItem(li, question({ text: "Edited?" }), question())).toBe(false);
    // The remote's row: a count without a button.
    const row = questionItem(question({ votes: 1 }), { actions: [] });
    expect(patchQuestionItem(row, question({ votes: 2 }), question({ votes: 1 }))).toBe(true);
    expect(el(row).querySelector(".question-votes")!.textContent).toBe("▲ 2 votes");
  });
});

describe("poll bars", () => {
  test("shares are of the voters: a multiple-choice poll may add up past 100 %", () => {
    const bars = pollBars({ options: ["A", "B"] }, { counts: [3, 2], voters: 3 });
    expect(bars.map((b) => [b.count, b.percent, b.fill])).toEqual([
      [3, 100, 1],
      [2, 67, 2 / 3],
    ]);
  });

  test("no results or no voters: zero bars, no division by zero", () => {
    expect(pollBars({ options: ["A", "B"] }, null).map(barText)).toEqual(["A: 0 votes, 0%", "B: 0 votes, 0%"]);
    expect(pollBars({ options: ["A"] }, { counts: [], voters: 0 })[0]).toEqual({ option: "A", count: 0, percent: 0, fill: 0 });
  });
});
