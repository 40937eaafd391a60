import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/base/errors.ts";
import { createGate, MCP_GATE_DEFAULTS } from "../../src/mcp/gate.ts";
import { settled } from "../helpers/wait.ts";

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the gate of large /mcp calls", () => {
  test("defaults: two at once, a bounded wait well under the server's 120 s idle timeout", () => {
    expect(MCP_GATE_DEFAULTS.slots).toBe(2);
    expect(MCP_GATE_DEFAULTS.maxWaitMs).toBeLessThan(120_000);
  });

  test("grants `slots` at once; the next waits and gets the slot a holder releases, in arrival order", async () => {
    const gate = createGate({ slots: 2, maxWaitMs: 5_000, maxWaiting: 8 });
    const a = await gate.acquire();
    const b = await gate.acquire();
    const order: string[] = [];
    const c = gate.acquire().then((release) => (order.push("c"), release));
    const d = gate.acquire().then((release) => (order.push("d"), release));
    // The gate grants through promises only: after this turn, c and d were not granted.
    await settled();
    expect(order).toEqual([]);
    expect({ active: gate.active, waiting: gate.waiting }).toEqual({ active: 2, waiting: 2 });
    a();
    a(); // releasing twice frees one slot only
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect({ active: gate.active, waiting: gate.waiting }).toEqual({ active: 2, waiting: 1 });
    b();
    (await d)();
    releaseC();
    expect({ active: gate.active, waiting: gate.waiting }).toEqual({ active: 0, waiting: 0 });
  });

  test("a wait longer than maxWaitMs is SERVER_BUSY: 503 with Retry-After, closing the unread body's connection", async () => {
    const gate = createGate({ slots: 1, maxWaitMs: 30, maxWaiting: 8 });
    const held = await gate.acquire();
    const started = Date.now();
    const error = await refusal(gate.acquire());
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(error.code).toBe("SERVER_BUSY");
    expect(error.status).toBe(503);
    expect(Number(error.headers["retry-after"])).toBeGreaterThan(0);
    expect(error.headers.connection).toBe("close");
    expect(error.detail).toContain("retry in");
    // The one that gave up is out of the line: the slot goes back to free, not to it.
    expect(gate.waiting).toBe(0);
    held();
    expect(gate.active).toBe(0);
  });

  test("a full line refuses at once", async () => {
    const gate = createGate({ slots: 1, maxWaitMs: 5_000, maxWaiting: 1 });
    const held = await gate.acquire();
    const waiting = gate.acquire();
    expect((await refusal(gate.acquire())).code).toBe("SERVER_BUSY");
    held();
    (await waiting)();
    expect(gate.active).toBe(0);
  });
});
