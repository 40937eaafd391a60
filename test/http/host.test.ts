import { describe, expect, test } from "bun:test";
import { assertValidHost, isValidHost, originalOf, pathOf, publicBaseUrl, readdressed } from "../../src/http/host.ts";
import { originAllowed } from "../../src/http/middleware/origin.ts";

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("Host validation (RFC 9110 §7.2, RFC 3986 host)", () => {
  test("names, IPv4, IPv6 literals and ports are valid", () => {
    for (const host of ["talks.example.org", "x", "x:1", "127.0.0.1:8080", "[::1]", "[::1]:8080", "[2001:db8::5]:443", "localhost:65535", "a-b_c.d~e"]) {
      expect([host, isValidHost(host)]).toEqual([host, true]);
    }
  });

  test("the audit's malformed values are not", () => {
    for (const host of [null, "", " ", "a b", "[::1", "user@x", "x:99999", "%", "%41", "a\\b", "x:", ":80", "x:8080:1", "x/y", "x?y", "x#y"]) {
      expect([host, isValidHost(host)]).toEqual([host, false]);
    }
  });
});

describe("assertValidHost and readdressed (the host guard's, before routing)", () => {
  test("refuses a request without a valid Host with a 400 that closes the connection", () => {
    for (const host of ["", "a b", "user@x"]) {
      let error: unknown;
      try {
        assertValidHost(request("http://127.0.0.1/api/present", { host }));
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "BAD_REQUEST", status: 400, headers: { connection: "close" } });
    }
  });

  test("re-addresses a request whose origin is too short for Elysia's router, keeping path, query, headers and the way back to the received request", () => {
    const received = request("http://x/abc/healthz?t=1", { host: "x", "x-extra": "1" });
    const short = readdressed(received);
    // The server keys the peer's address by the request it received.
    expect(originalOf(short)).toBe(received);
    expect(short.url).toBe("http://deckhand.invalid/abc/healthz?t=1");
    expect(short.headers.get("host")).toBe("x");
    expect(short.headers.get("x-extra")).toBe("1");
    const long = request("http://talks.example.org/healthz", { host: "talks.example.org" });
    expect(readdressed(long)).toBe(long);
    expect(originalOf(long)).toBe(long);
  });

  test("pathOf never throws and never returns the query", () => {
    expect(pathOf(request("http://x/start/abc?t=secret"))).toBe("/start/abc");
    expect(pathOf({ url: "/healthz?t=secret" } as Request)).toBe("/healthz");
    expect(pathOf({ url: "http://x" } as Request)).toBe("/");
  });
});

describe("publicBaseUrl", () => {
  const config = { baseUrl: null, trustProxy: false };

  test("--base-url wins", () => {
    expect(publicBaseUrl(request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080" }), { ...config, baseUrl: "https://talks.example.org" })).toBe("https://talks.example.org");
  });

  test("from the Host header, not from the (possibly re-addressed) request URL", () => {
    expect(publicBaseUrl(request("http://deckhand.invalid/api/present", { host: "x:1" }), config)).toBe("http://x:1");
  });

  test("behind a trusted proxy: X-Forwarded-Proto and X-Forwarded-Host, never the port deckhand listens on", () => {
    const proxied = request("http://127.0.0.1:8080/api/present", { host: "127.0.0.1:8080", "x-forwarded-host": "talks.example.org", "x-forwarded-proto": "https" });
    expect(publicBaseUrl(proxied, { ...config, trustProxy: true })).toBe("https://talks.example.org");
    const withPort = request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080", "x-forwarded-host": "talks.example.org:8443", "x-forwarded-proto": "https" });
    expect(publicBaseUrl(withPort, { ...config, trustProxy: true })).toBe("https://talks.example.org:8443");
    // The default port of the scheme is no port at all.
    const defaultPort = request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080", "x-forwarded-host": "talks.example.org:443", "x-forwarded-proto": "https" });
    expect(publicBaseUrl(defaultPort, { ...config, trustProxy: true })).toBe("https://talks.example.org");
    // The rightmost entry is the one our proxy wrote; a malformed one is ignored.
    const chained = request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080", "x-forwarded-host": "evil.example, talks.example.org", "x-forwarded-proto": "http, https" });
    expect(publicBaseUrl(chained, { ...config, trustProxy: true })).toBe("https://talks.example.org");
    const bad = request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080", "x-forwarded-host": "a b" });
    expect(publicBaseUrl(bad, { ...config, trustProxy: true })).toBe("http://127.0.0.1:8080");
  });

  test("without --trust-proxy the forwarding headers are ignored", () => {
    const proxied = request("http://127.0.0.1:8080/", { host: "127.0.0.1:8080", "x-forwarded-host": "talks.example.org", "x-forwarded-proto": "https" });
    expect(publicBaseUrl(proxied, config)).toBe("http://127.0.0.1:8080");
  });
});

describe("originAllowed (/mcp, against DNS rebinding)", () => {
  const config = { baseUrl: null, allowedOrigins: [] as string[] };
  test("no Origin (not a browser) and loopback pages are allowed", () => {
    for (const origin of [null, "http://localhost:6274", "http://127.0.0.1:8080", "https://[::1]:3000"]) expect([origin, originAllowed(origin, config)]).toEqual([origin, true]);
  });
  test("any other page is not, even one whose name points at this server", () => {
    for (const origin of ["http://evil.example:8080", "null", "file://", "http://127.0.0.1.evil.example"]) expect([origin, originAllowed(origin, config)]).toEqual([origin, false]);
  });
  test("--base-url's origin and --allow-origin are", () => {
    expect(originAllowed("https://talks.example.org", { ...config, baseUrl: "https://talks.example.org" })).toBe(true);
    expect(originAllowed("https://app.example.com", { ...config, allowedOrigins: ["https://app.example.com"] })).toBe(true);
    expect(originAllowed("https://app.example.com:444", { ...config, allowedOrigins: ["https://app.example.com"] })).toBe(false);
  });
});
