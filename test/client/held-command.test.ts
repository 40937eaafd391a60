/**
 * A remote's press while the presenter is away: the last press is held for
 * HOLD_MS and sent on return, an older one is dropped, and the remote's sentences say which.
 */
import { describe, expect, test } from "bun:test";
import { HOLD_MS, actionName, expired, release, remoteStatus } from "../../client/src/live/remote/held-command.ts";

describe("held remote command", () => {
  const next = { action: "next" } as const;
  const prev = { action: "prev" } as const;

  test("a press held within HOLD_MS is sent on return; nothing held sends nothing", () => {
    expect(release({ command: next, at: 1000 }, 1000 + HOLD_MS)).toEqual({ send: next, dropped: null });
    expect(release(null, 5000)).toEqual({ send: null, dropped: null });
  });

  test("a press older than HOLD_MS is dropped, not sent", () => {
    expect(release({ command: prev, at: 0 }, HOLD_MS + 1)).toEqual({ send: null, dropped: prev });
    expect(expired({ command: prev, at: 0 }, HOLD_MS + 1)).toBe(true);
    expect(expired({ command: prev, at: 0 }, HOLD_MS)).toBe(false);
    expect(expired(null, HOLD_MS * 10)).toBe(false);
  });

  test("presses are named as the remote's buttons name them", () => {
    expect([next, prev, { action: "blank", blank: "black" } as const, { action: "blank", blank: "none" } as const].map(actionName)).toEqual(["Next", "Previous", "Black screen", "Back from black"]);
  });

  test("the status line says what waits, what was sent and what was dropped", () => {
    const held = { command: next, at: 0 };
    expect(remoteStatus("away", null)).toBe("The presenter is away. A press now waits for them (only the last one, up to 60 s).");
    expect(remoteStatus("away", held)).toBe("The presenter is away: your last press, “Next”, is sent when they return (if within 60 s).");
    expect(remoteStatus("offline", held)).toBe("This remote is not connected: your last press, “Next”, is sent when the connection is back (if within 60 s).");
    expect(remoteStatus("connected", null, { sent: next })).toBe("Connected. “Next”, pressed while the presenter was away, was sent on their return.");
    expect(remoteStatus("connected", null, { dropped: prev })).toBe("Connected. “Previous” was dropped: it could not reach the presenter within 60 s. Press again if you still want it.");
    expect(remoteStatus("away", null, { dropped: prev })).toBe("“Previous” was dropped: it could not reach the presenter within 60 s. Press again if you still want it.");
    expect(remoteStatus("connected", null)).toBe("Connected");
    expect(remoteStatus("offline", null)).toBe("Connecting to the server…");
  });
});
