import { describe, expect, test } from "bun:test";
import { LiveViewerId } from "../../src/shared/live-audience-protocol.ts";
import { base64url, VIEWER_ID_KEY, viewerId } from "../../client/src/live/viewer/viewer-id.ts";

const PATTERN = new RegExp(LiveViewerId.pattern!);

function memoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe("a viewer's per-browser id", () => {
  test("a new one is 22 base64url characters from 16 random bytes, matches what the server accepts and is kept", () => {
    const store = memoryStore();
    const id = viewerId(store);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(id).toMatch(PATTERN);
    expect(store.data.get(VIEWER_ID_KEY)).toBe(id);
  });

  test("a reload gets the same id back; another browser (another store) a different one", () => {
    const store = memoryStore();
    const first = viewerId(store);
    expect(viewerId(store)).toBe(first);
    expect(viewerId(memoryStore())).not.toBe(first);
  });

  test("the bytes come from the injected source and are encoded as base64url without padding", () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 251) % 256);
    const id = viewerId(memoryStore(), (b) => (b.set(bytes), b));
    expect(id).toBe(base64url(bytes));
    expect(base64url(Uint8Array.of(0xfb, 0xff, 0xfe))).toBe("-__-");
  });

  test("a kept value the server would refuse is replaced", () => {
    for (const bad of ["short", "has spaces in it, sixteen+", "é".repeat(20), "x".repeat(65)]) {
      const store = memoryStore({ [VIEWER_ID_KEY]: bad });
      const id = viewerId(store);
      expect(id).not.toBe(bad);
      expect(id).toMatch(PATTERN);
      expect(store.data.get(VIEWER_ID_KEY)).toBe(id);
    }
  });

  test("storage that throws (a private window) or none at all still gives a valid id", () => {
    const throwing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(viewerId(throwing)).toMatch(PATTERN);
    expect(viewerId(null)).toMatch(PATTERN);
  });
});
