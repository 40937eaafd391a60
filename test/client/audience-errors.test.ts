import { describe, expect, test } from "bun:test";
import { audienceErrorText } from "../../client/src/live/talk/audience-errors.ts";
import { questionLength } from "../../client/src/live/viewer/viewer-audience.ts";

describe("the server's refusals, said to a viewer", () => {
  test("the same code reads after the control that was used", () => {
    expect(audienceErrorText("ALREADY_VOTED", "vote")).toBe("You voted in this poll already.");
    expect(audienceErrorText("ALREADY_VOTED", "upvote")).toBe("You up-voted this question already.");
    expect(audienceErrorText("QA_CLOSED", "ask")).toContain("was not sent");
    expect(audienceErrorText("QA_FULL", "ask")).toBe("This talk cannot take more questions.");
    expect(audienceErrorText("QA_FULL", "upvote")).toBe("This talk cannot take more up-votes.");
    expect(audienceErrorText("BAD_CHOICE", "vote", { multiple: true })).toBe("Choose at least one option.");
    expect(audienceErrorText("BAD_CHOICE", "vote", { multiple: false })).toBe("Choose one option.");
  });

  test("every audience code gets a sentence of its own (none falls through to the generic one)", () => {
    const generic = audienceErrorText("INTERNAL", "ask");
    for (const code of ["QA_CLOSED", "QUESTION_RATE", "QA_FULL", "NO_QUESTION", "ALREADY_VOTED", "ADDRESS_LIMIT", "NO_POLL", "BAD_CHOICE", "BAD_TEXT", "RATE_LIMITED"] as const) {
      const text = audienceErrorText(code, code === "NO_POLL" || code === "BAD_CHOICE" ? "vote" : "ask");
      expect(text).not.toBe(generic);
      expect(text).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe("the Ask box's counter", () => {
  test("counts characters as the server does (code points, trimmed), so an emoji is one", () => {
    expect(questionLength("  hi  ")).toBe(2);
    expect(questionLength("👍👍")).toBe(2);
    expect(questionLength("")).toBe(0);
  });
});
