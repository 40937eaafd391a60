/**
 * The card in place of the next-step preview never promises a slide that is not there: on the
 * deck's last slide, beside *End of deck*, its last step says the deck ends.
 */
import { describe, expect, test } from "bun:test";
import { stepEndText } from "../../client/src/presenter/views/counter-view.ts";

describe("the card in place of the next step", () => {
  test("says what the next click does: the next slide, or nothing on the deck's last slide", () => {
    expect(stepEndText(3, false)).toBe("Last step — Next goes to the next slide");
    expect(stepEndText(3, true)).toBe("Last step — the end of the deck");
    expect(stepEndText(1, true)).toBe("No build on this slide");
    expect(stepEndText(1, false)).toBe("No build on this slide");
  });
});
