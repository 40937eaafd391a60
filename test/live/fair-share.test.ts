/**
 * One address's share of a bounded room (a talk's seats, the instance's sockets) shrinks as
 * the room fills (src/live/fair-share.ts): a fixed half let two addresses fill it. The rule
 * alone, by arithmetic: what one address, a second and many get, that the last tenth stays for
 * addresses holding fewer than four, and that every place is given in the end.
 */
import { describe, expect, test } from "bun:test";
import { keptFree, mayTake, SMALL_ADDRESS } from "../../src/live/fair-share.ts";

/** Addresses arriving one after another, each taking places until refused: what each got, and the places left. */
function greedy(size: number, addresses: number): { got: number[]; free: number } {
  let taken = 0;
  const got: number[] = [];
  for (let a = 0; a < addresses; a++) {
    let held = 0;
    while (mayTake({ size, taken }, held) === "ok") held++, taken++;
    got.push(held);
  }
  return { got, free: size - taken };
}

describe("one address's share as the room fills", () => {
  test("1,000 seats: one address alone gets 450, a second 225, a third 112; two addresses leave 325 seats for others", () => {
    expect(greedy(1000, 1).got).toEqual([450]);
    expect(greedy(1000, 2)).toEqual({ got: [450, 225], free: 325 });
    expect(greedy(1000, 3).got).toEqual([450, 225, 112]);
  });

  test("however many large addresses come, the last tenth stays for addresses holding fewer than four: they fill it four by four, to the last place", () => {
    const { got, free } = greedy(1000, 40);
    // Large addresses stop short of the kept tenth: 450, 225, … 7, then an address gets only the four any address may.
    expect(got.slice(0, 8)).toEqual([450, 225, 112, 56, 28, 14, 7, 4]);
    const large = got.filter((n) => n > SMALL_ADDRESS).reduce((a, b) => a + b, 0);
    expect(1000 - large).toBeGreaterThanOrEqual(keptFree(1000));
    expect(keptFree(1000)).toBe(100);
    // After them, nobody takes more than four: the last 108 seats took 27 addresses.
    expect(got.slice(7).filter((n) => n > 0)).toEqual(new Array(27).fill(SMALL_ADDRESS));
    expect(free).toBe(0);
    expect(mayTake({ size: 1000, taken: 1000 }, 0)).toBe("full");
  });

  test("the 15,000-socket instance the audit filled with two addresses: they get 6,750 and 3,375, and 4,875 stay for others", () => {
    expect(greedy(15_000, 2)).toEqual({ got: [6750, 3375], free: 4875 });
  });

  test("a small room still fills: any address may take up to four places while one is free", () => {
    expect(greedy(1, 1)).toEqual({ got: [1], free: 0 });
    expect(greedy(3, 1)).toEqual({ got: [3], free: 0 });
    expect(greedy(10, 3)).toEqual({ got: [4, 4, 2], free: 0 });
  });

  test("the decision is the room as it is now: a place given back by others lets a large address take one more", () => {
    expect(mayTake({ size: 100, taken: 80 }, 10)).toBe("share");
    expect(mayTake({ size: 100, taken: 50 }, 10)).toBe("ok");
    expect(mayTake({ size: 100, taken: 50 }, 3)).toBe("ok");
    expect(mayTake({ size: 100, taken: 100 }, 0)).toBe("full");
  });

  test("after any join by an address holding four or more, the places still free are at least what it holds plus a tenth of the room (random arrivals and leaves)", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const size of [10, 64, 188, 1000]) {
      const held = new Array<number>(12).fill(0);
      let taken = 0;
      for (let step = 0; step < 20_000; step++) {
        const a = Math.floor(random() * held.length);
        if (random() < 0.3 && held[a]! > 0) {
          held[a]!--;
          taken--;
          continue;
        }
        if (mayTake({ size, taken }, held[a]!) !== "ok") continue;
        held[a]!++;
        taken++;
        if (held[a]! > SMALL_ADDRESS) expect(size - taken).toBeGreaterThanOrEqual(held[a]! + keptFree(size));
        expect(taken).toBeLessThanOrEqual(size);
      }
    }
  });
});
