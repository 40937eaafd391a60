/**
 * The claim's probe (client/lib/deck-probe) and the render worker's store of a downloading
 * deck (client/worker/received-deck): the worker reads the bytes it was handed during the
 * download when it has every one of them, in order, and a copy of the whole deck otherwise.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DeckProbe, type ProbeRenderer } from "../../client/src/lib/deck-probe.ts";
import { ReceivedDeck } from "../../client/src/worker/received-deck.ts";
import type { OpenResult, RenderResult } from "../../client/src/worker/protocol.ts";
import { NO_NOTES_LAYOUT } from "../../src/deck/notes-layout.ts";

const PAGE = { w: 960, h: 540 };
const OPENED: OpenResult = { pageCount: 3, title: null, firstPage: PAGE, labels: ["1", "2", "3"], durations: {}, layout: NO_NOTES_LAYOUT, detected: NO_NOTES_LAYOUT };

/** A render worker that records what it was asked; its bytes are what it was handed. */
class FakeRenderer implements ProbeRenderer {
  calls: string[] = [];
  received: { bytes: number[]; at: number }[] = [];
  opened: { how: "received" | "copy"; bytes: number; notesPosition?: string } | null = null;
  terminated = false;

  receive(chunk: Uint8Array, at: number): void {
    this.received.push({ bytes: [...chunk], at });
  }
  openReceived(length: number, options: { notesPosition?: string } = {}): Promise<OpenResult> {
    this.opened = { how: "received", bytes: length, ...(options.notesPosition ? { notesPosition: options.notesPosition } : {}) };
    this.calls.push("openReceived");
    return Promise.resolve(OPENED);
  }
  open(data: ArrayBuffer, options: { notesPosition?: string } = {}): Promise<OpenResult> {
    this.opened = { how: "copy", bytes: data.byteLength, ...(options.notesPosition ? { notesPosition: options.notesPosition } : {}) };
    this.calls.push("open");
    return Promise.resolve(OPENED);
  }
  renderOnce(page: number, width: number): Promise<RenderResult> {
    this.calls.push(`render ${page}@${width}`);
    return Promise.resolve({ page, w: PAGE.w, h: PAGE.h, image: { width, height: Math.round((width * PAGE.h) / PAGE.w) } as ImageData, ms: 1, gen: 0 });
  }
  picture(page: number, width: number): Promise<Blob> {
    this.calls.push(`picture ${page}@${width}`);
    return Promise.resolve(new Blob(["png"]));
  }
  terminate(): void {
    this.terminated = true;
  }
}

const saved = { innerWidth: globalThis.innerWidth, innerHeight: globalThis.innerHeight, window: globalThis.window };
beforeAll(() => {
  // snapshotWidth (the presenter's picture) reads the window's size and pixel ratio.
  Object.assign(globalThis, { innerWidth: 1280, innerHeight: 720, window: { devicePixelRatio: 1 } });
});
afterAll(() => {
  Object.assign(globalThis, saved);
});

const chunk = (...bytes: number[]) => new Uint8Array(bytes);

describe("the probe reads the bytes its worker received during the download", () => {
  test("every chunk in order: the worker opens what it holds, no copy; slide 1 at the page's width, then the presenter's picture", async () => {
    const fake = new FakeRenderer();
    const probe = new DeckProbe(() => fake);
    probe.warm();
    probe.receive(chunk(1, 2, 3), 0, 5);
    probe.receive(chunk(4, 5), 3, 5);
    expect(fake.received).toEqual([
      { bytes: [1, 2, 3], at: 0 },
      { bytes: [4, 5], at: 3 },
    ]);
    const probed = probe.read(new Uint8Array([1, 2, 3, 4, 5]).buffer, { slideWidth: (page) => page.w / 2 });
    expect(await probed.layout).toEqual({ pageSize: PAGE, labels: ["1", "2", "3"] });
    expect((await probed.slide())?.image.width).toBe(480);
    expect(await probed.picture()).toBeInstanceOf(Blob);
    expect(fake.opened).toEqual({ how: "received", bytes: 5 });
    expect(fake.calls).toEqual(["openReceived", "render 1@480", "picture 1@1280"]);
    await Bun.sleep(0);
    expect(fake.terminated).toBe(true);
  });

  test("a chunk missed (a retry's worker started after the download did): the worker gets a copy of the whole deck", async () => {
    const fake = new FakeRenderer();
    const probe = new DeckProbe(() => fake);
    probe.warm();
    probe.receive(chunk(4, 5), 3, 5);
    const probed = probe.read(new Uint8Array([1, 2, 3, 4, 5]).buffer, { slideWidth: () => 100 });
    await probed.layout;
    expect(fake.opened).toEqual({ how: "copy", bytes: 5 });
    expect(fake.received).toEqual([]);
  });

  test("a download that starts again at byte 0 starts the worker's bytes again; fewer bytes than the deck's: a copy", async () => {
    const fake = new FakeRenderer();
    const probe = new DeckProbe(() => fake);
    probe.warm();
    probe.receive(chunk(9, 9, 9, 9), 0, 5);
    probe.receive(chunk(1, 2, 3), 0, 5);
    let probed = probe.read(new Uint8Array([1, 2, 3, 4, 5]).buffer, { slideWidth: () => 100 });
    await probed.layout;
    expect(fake.opened?.how).toBe("copy");
    probed.done();

    const again = new FakeRenderer();
    const probe2 = new DeckProbe(() => again);
    probe2.warm();
    probe2.receive(chunk(9, 9, 9, 9), 0, 5);
    probe2.receive(chunk(1, 2, 3), 0, 5);
    probe2.receive(chunk(4, 5), 3, 5);
    probed = probe2.read(new Uint8Array([1, 2, 3, 4, 5]).buffer, { slideWidth: () => 100 });
    await probed.layout;
    expect(again.opened?.how).toBe("received");
  });

  test("the split this browser keeps for the deck goes with the open; a claim that shows no slide renders nothing and ends the worker", async () => {
    const fake = new FakeRenderer();
    const probe = new DeckProbe(() => fake);
    probe.warm();
    probe.receive(chunk(1, 2), 0, 2);
    const probed = probe.read(new Uint8Array([1, 2]).buffer, { notesPosition: "right", slideWidth: () => 100 });
    expect(fake.opened).toEqual({ how: "received", bytes: 2, notesPosition: "right" });
    probed.done();
    await probed.layout;
    await Bun.sleep(0);
    expect(fake.terminated).toBe(true);
    expect(fake.calls).toEqual(["openReceived"]);
  });

  test("without a warm worker, chunks are ignored and the deck is read from a copy", async () => {
    const fake = new FakeRenderer();
    const probe = new DeckProbe(() => fake);
    probe.receive(chunk(1, 2), 0, 2);
    await probe.read(new Uint8Array([1, 2]).buffer, { slideWidth: () => 100 }).layout;
    expect(fake.received).toEqual([]);
    expect(fake.opened?.how).toBe("copy");
  });
});

describe("the worker's copy of a downloading deck (received-deck)", () => {
  const buf = (...bytes: number[]) => new Uint8Array(bytes).buffer;

  test("chunks in order make the deck; take hands it over once", () => {
    const deck = new ReceivedDeck();
    deck.receive(buf(1, 2), 0, 4);
    deck.receive(buf(3, 4), 2, 4);
    expect([...deck.take(4)]).toEqual([1, 2, 3, 4]);
    expect(() => deck.take(4)).toThrow(/did not all arrive/);
  });

  test("more bytes than announced (or none announced) are kept, in order", () => {
    const deck = new ReceivedDeck();
    deck.receive(buf(1), 0, null);
    deck.receive(buf(2, 3, 4), 1, null);
    deck.receive(buf(5, 6, 7, 8, 9), 4, null);
    expect([...deck.take(9)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test("a gap, a missing start or a short deck is refused rather than opened", () => {
    const gap = new ReceivedDeck();
    gap.receive(buf(1, 2), 0, 6);
    gap.receive(buf(5, 6), 4, 6);
    expect(() => gap.take(6)).toThrow();
    const noStart = new ReceivedDeck();
    noStart.receive(buf(3, 4), 2, 4);
    expect(() => noStart.take(4)).toThrow();
    const short = new ReceivedDeck();
    short.receive(buf(1, 2), 0, 4);
    expect(() => short.take(4)).toThrow();
  });

  test("a chunk at 0 starts a new deck (the download restarted)", () => {
    const deck = new ReceivedDeck();
    deck.receive(buf(9, 9, 9), 0, 3);
    deck.receive(buf(1, 2, 3), 0, 3);
    expect([...deck.take(3)]).toEqual([1, 2, 3]);
  });
});
