/**
 * Text that shows nothing is blank: a question or poll text of zero-width, format, filler or
 * other invisible characters only was accepted and showed as an empty card. One rule
 * (isBlankText, src/shared/live-audience-protocol.ts) for the server's model and the forms
 * that send to it — the viewer's Ask box and the presenter's poll form.
 */
import { describe, expect, test } from "bun:test";
import { type Actor, Audience, type AudienceResult } from "../../src/live/audience/model.ts";
import { isBlankText } from "../../src/shared/live-audience-protocol.ts";
import { questionLength } from "../../client/src/live/viewer/viewer-audience.ts";
import { checkPollDraft } from "../../client/src/live/talk/talk-model.ts";

/** Each shows nothing: white space, zero-width characters, joiners, fillers, marks, selectors. */
const INVISIBLE = [
  "",
  " \t\n\u00a0\u3000",
  "\u200b\u200c\u200d",
  "\u2060\ufeff",
  "\u00ad",
  "\ufe0f\u{e0100}",
  "\u200e\u200f\u061c\u202e\u2066",
  "\u3164\u115f\u1160\uffa0",
  "\u180e\u034f",
  "\u{1d173}",
  "\u2800",
  "\u0007\u007f",
  "\u200b \u2060 \ufeff",
];
/** Each shows something, invisible characters around it or not. */
const VISIBLE = ["a", "\u200ba\u200b", "👍", "👩\u200d💻", "\u0301", "?", "۝", "\u00ad-"];

const code = (result: AudienceResult) => (result.ok ? "ok" : result.code);
const viewer = (n: number): Actor => ({ viewerId: `viewer-${String(n).padStart(10, "0")}`, addressKey: `10.0.0.${n}`, perAddress: 5 });

describe("the blank rule", () => {
  test("invisible-only text is blank; text with anything visible is not", () => {
    expect(INVISIBLE.filter((text) => !isBlankText(text))).toEqual([]);
    expect(VISIBLE.filter((text) => isBlankText(text))).toEqual([]);
  });

  test("the server refuses an invisible question or poll text (BAD_TEXT) and drops an invisible name", () => {
    let ids = 0;
    const audience = new Audience({ clock: () => 1_000, newId: () => `id${++ids}` });
    audience.setQa(true, false);
    INVISIBLE.forEach((text, i) => expect({ text, code: code(audience.ask(viewer(i), text)) }).toEqual({ text, code: "BAD_TEXT" }));
    expect(code(audience.ask(viewer(1), "Why?", "\u200b\u200d\ufeff"))).toBe("ok");
    expect(code(audience.ask(viewer(2), "\u200bReally?\u200b", "\u2800"))).toBe("ok");
    expect(audience.hello("viewer").questions.map((q) => [q.text, q.name])).toEqual([
      ["Why?", undefined],
      ["\u200bReally?\u200b", undefined],
    ]);
    expect(code(audience.pollStart({ question: "\u200b\u200c", options: ["A", "B"], multiple: false }))).toBe("BAD_TEXT");
    expect(code(audience.pollStart({ question: "Lunch?", options: ["A", "\u2060\ufe0f"], multiple: false }))).toBe("BAD_TEXT");
    expect(code(audience.pollStart({ question: "Lunch?", options: ["A", "B"], multiple: false }))).toBe("ok");
  });

  test("the forms agree: the Ask box counts invisible text as nothing (Send stays off), the poll form drops invisible options and refuses an invisible question", () => {
    for (const text of INVISIBLE) expect(questionLength(text)).toBe(0);
    expect(questionLength(" \u200bWhy?\u200b ")).toBe(6);
    expect(checkPollDraft({ question: "\u200b\u200d", options: ["A", "B"], multiple: false })).toEqual({ ok: false, problem: "Type the poll's question." });
    expect(checkPollDraft({ question: "Lunch?", options: ["A", "\u200b", "\u3164", "B"], multiple: false })).toEqual({ ok: true, poll: { question: "Lunch?", options: ["A", "B"], multiple: false } });
    expect(checkPollDraft({ question: "Lunch?", options: ["A", "\ufeff\u2060"], multiple: false })).toMatchObject({ ok: false });
  });
});
