import { describe, expect, test } from "bun:test";
import { DeckBuffer } from "../../client/src/lib/deck-buffer.ts";

const chunk = (...values: number[]) => new Uint8Array(values);

describe("DeckBuffer (the claim's download, gathered as it arrives)", () => {
  test("chunks fill a buffer of the announced length, returned as is", () => {
    const deck = new DeckBuffer(5);
    deck.append(chunk(1, 2));
    deck.append(chunk(3, 4, 5));
    expect(deck.received).toBe(5);
    const bytes = deck.bytes();
    expect(new Uint8Array(bytes)).toEqual(chunk(1, 2, 3, 4, 5));
    // Asked again (a retry after a storage failure): the same bytes, not another copy.
    expect(deck.bytes()).toBe(bytes);
  });

  test("fewer bytes than announced give exactly those bytes", () => {
    const deck = new DeckBuffer(8);
    deck.append(chunk(9, 8, 7));
    expect(deck.bytes().byteLength).toBe(3);
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(9, 8, 7));
  });

  test("more bytes than announced are all kept, in order", () => {
    const deck = new DeckBuffer(3);
    deck.append(chunk(1, 2));
    deck.append(chunk(3, 4));
    deck.append(chunk(5));
    expect(deck.received).toBe(5);
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2, 3, 4, 5));
  });

  test("without a length, chunks are joined when asked for", () => {
    const deck = new DeckBuffer(null);
    deck.append(chunk(1));
    deck.append(chunk(2, 3));
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2, 3));
    deck.append(chunk(4));
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2, 3, 4));
  });

  test("a chunk's memory may be handed on once appended (the claim's probe takes it): with or without a length, past it too", () => {
    for (const total of [null, 3, 2]) {
      const deck = new DeckBuffer(total);
      for (const bytes of [chunk(1, 2), chunk(3)]) {
        deck.append(bytes);
        // As postMessage with the buffer in its transfer list leaves it: detached.
        structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
        expect(bytes.byteLength).toBe(0);
      }
      expect({ total, bytes: new Uint8Array(deck.bytes()) }).toEqual({ total, bytes: chunk(1, 2, 3) });
    }
  });

  test("appending after the bytes were read (a resumed download) continues them", () => {
    const deck = new DeckBuffer(4);
    deck.append(chunk(1, 2));
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2));
    deck.append(chunk(3, 4));
    expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2, 3, 4));
  });
});

test("an announced length too large to allocate falls back to chunks", () => {
  const deck = new DeckBuffer(Number.MAX_SAFE_INTEGER);
  deck.append(chunk(1, 2));
  expect(new Uint8Array(deck.bytes())).toEqual(chunk(1, 2));
});
