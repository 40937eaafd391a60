/**
 * live/bus-bridge between two instances on an in-memory bus: an instance that loads a talk
 * reads the row, then listens, so a state saved and relayed by the presenter's instance in
 * between never reached it on the bus. Its `query` is answered once the presenter's instance
 * has written its state (and audience) to the row, and the state is then read and sent to
 * its viewers (the fresh-clone runs lost it once in three: a viewer on the other instance saw
 * no slide until the next change).
 */
import { describe, expect, test } from "bun:test";
import type { LiveBus, LiveSubscription } from "../../src/core/live.ts";
import type { LiveSessionRow } from "../../src/core/live-sessions.ts";
import { LiveBusBridge } from "../../src/live/bus-bridge.ts";
import { newAudience } from "../../src/live/audience/relay.ts";
import { newRoom, type Room } from "../../src/live/room.ts";
import type { LiveSocket } from "../../src/live/socket-policy.ts";
import { sampleState } from "./helpers.ts";

/** One process's stand-in for PostgreSQL's LISTEN/NOTIFY: every subscriber of a channel, in order. */
class MemoryBus implements LiveBus {
  private readonly listeners = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    await Promise.resolve();
    for (const listener of this.listeners.get(channel) ?? []) listener(message);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<LiveSubscription> {
    const set = this.listeners.get(channel) ?? new Set();
    set.add(onMessage);
    this.listeners.set(channel, set);
    return { close: async () => void set.delete(onMessage) };
  }

  async close(): Promise<void> {}
}

const CODE = "TALK42";

function row(stateJson: string | null): LiveSessionRow {
  return {
    code: CODE,
    blobId: `live-${CODE}`,
    filename: "talk",
    totalSlides: 4,
    bytes: 1000,
    sha256: "a".repeat(64),
    presenterHash: "p".repeat(64),
    controlHash: "c".repeat(64),
    controlGeneration: 1,
    allowDownload: false,
    createdAt: 0,
    expiresAt: 12 * 3_600_000,
    endedAt: null,
    endReason: null,
    stateJson,
    presenterSeenAt: 0,
    audienceJson: null,
    notes: null,
  };
}

/** An instance: its bridge, its room of the talk, what it sent its own sockets, and the shared row. */
function instance(bus: LiveBus, table: { stateJson: string | null }, room: Room) {
  const local: string[] = [];
  let audienceCaughtUp = 0;
  const bridge = new LiveBusBridge({
    bus,
    logger: { info() {}, warn() {}, error() {}, debug() {} } as never,
    service: { find: async () => row(table.stateJson) },
    grace: { remote() {}, remoteDeparted() {} } as never,
    publishLocal: (_room, data) => void local.push(data),
    loaded: (r) => r === room,
    ended() {},
    rotated() {},
    audience() {},
    saveCopy: async (r) => {
      // As the hub does: the audience always, the state when the presenter is connected here.
      if (r.presenter) table.stateJson = JSON.stringify(r.snapshot);
    },
    audienceSaved: () => void audienceCaughtUp++,
  });
  return { bridge, room, local, audienceCaughtUp: () => audienceCaughtUp };
}

const roomOf = (stateJson: string | null) => newRoom(CODE, row(stateJson), newAudience(() => 0, null));
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("an instance loading a talk gets the state the presenter's instance saved and relayed while it was loading", () => {
  test("its query is answered after the state is in the row; the row's state goes to its viewers", async () => {
    const bus = new MemoryBus();
    // What B saved had not reached the row when A read it: the row says nothing yet.
    const table = { stateJson: null as string | null };
    const b = instance(bus, table, roomOf(null));
    b.room.presenter = {} as LiveSocket;
    b.room.snapshot = { seq: 3, state: sampleState(2) as never };
    await b.bridge.subscribe(b.room);
    // B's relay of that state went out before A listened: A never sees it on the bus.
    const a = instance(bus, table, roomOf(table.stateJson));
    expect(a.room.snapshot.seq).toBe(0);
    await a.bridge.subscribe(a.room);
    await settle();
    expect(a.audienceCaughtUp()).toBe(1);
    expect(a.room.snapshot.seq).toBe(3);
    expect(a.local.map((m) => JSON.parse(m) as unknown)).toEqual([{ v: 1, type: "state", seq: 3, state: expect.objectContaining({ page: 2 }) }]);
    // B, which asked nothing, sent nothing to its own sockets.
    expect(b.local).toEqual([]);
  });

  test("an instance that already has that state (it came on the bus) sends it to nobody again", async () => {
    const bus = new MemoryBus();
    const snapshot = { seq: 3, state: sampleState(2) as never };
    const table = { stateJson: JSON.stringify(snapshot) };
    const b = instance(bus, table, roomOf(null));
    b.room.presenter = {} as LiveSocket;
    b.room.snapshot = snapshot;
    await b.bridge.subscribe(b.room);
    const a = instance(bus, table, roomOf(table.stateJson));
    expect(a.room.snapshot.seq).toBe(3);
    await a.bridge.subscribe(a.room);
    await settle();
    expect(a.audienceCaughtUp()).toBe(1);
    expect(a.local).toEqual([]);
  });

  test("without a presenter anywhere, the state in the row stays as it is and nothing is sent", async () => {
    const bus = new MemoryBus();
    const table = { stateJson: null as string | null };
    const b = instance(bus, table, roomOf(null));
    await b.bridge.subscribe(b.room);
    const a = instance(bus, table, roomOf(null));
    await a.bridge.subscribe(a.room);
    await settle();
    expect(table.stateJson).toBeNull();
    expect(a.local).toEqual([]);
  });
});
