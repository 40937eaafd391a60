import { describe, expect, test } from "bun:test";
import { addressKey } from "../../src/tools/address-key.ts";
import { UploadSlots } from "../../src/upload/slots.ts";

describe("addressKey", () => {
  test("IPv4 as is; IPv4-mapped IPv6 as its IPv4", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });
  test("IPv6 by its /64, whatever the spelling", () => {
    const key = addressKey("2001:db8:1:2::5");
    expect(key).toBe("2001:db8:1:2::/64");
    for (const same of ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "[2001:db8:1:2::1]", "2001:DB8:1:2:0:0:0:9", "2001:db8:1:2::1%eth0"]) expect(addressKey(same)).toBe(key);
    expect(addressKey("2001:db8:1:3::5")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("UploadSlots", () => {
  test("at most perAddress per address (429 TOO_MANY_UPLOADS), at most total in all (503 SERVER_BUSY)", () => {
    const slots = new UploadSlots({ perAddress: 2, total: 3 });
    const a1 = slots.acquire("198.51.100.1");
    slots.acquire("198.51.100.1");
    expect(() => slots.acquire("198.51.100.1")).toThrow(expect.objectContaining({ code: "TOO_MANY_UPLOADS", status: 429 }));
    // Another address of the same IPv6 /64 is the same subscriber.
    slots.acquire("2001:db8::1");
    expect(() => slots.acquire("2001:db8::2")).toThrow(expect.objectContaining({ code: "SERVER_BUSY", status: 503 }));
    a1();
    a1(); // idempotent: one release frees one slot
    expect(slots.inUse).toBe(2);
    slots.acquire("198.51.100.1");
    expect(slots.inUse).toBe(3);
  });

  test("refusals carry Retry-After and close the connection (the body is never read)", () => {
    const slots = new UploadSlots({ perAddress: 1, total: 10 });
    slots.acquire("198.51.100.1");
    try {
      slots.acquire("198.51.100.1");
      throw new Error("not refused");
    } catch (error) {
      expect((error as { headers: Record<string, string> }).headers).toEqual({ "retry-after": "10", connection: "close" });
    }
  });

  test("an authenticated caller is not held to the per-address bound, only to the total", () => {
    const slots = new UploadSlots({ perAddress: 1, total: 2 });
    slots.acquire("198.51.100.1");
    slots.acquire("198.51.100.1", { perAddress: false });
    expect(() => slots.acquire("198.51.100.2", { perAddress: false })).toThrow(expect.objectContaining({ code: "SERVER_BUSY" }));
  });
});
