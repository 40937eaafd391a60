/**
 * Malformed and misleading HTTP against the compiled binary: Host headers a library would
 * never send, short Hosts that used to misroute, proxy headers, Origin on /mcp, and what Bun
 * answers itself before deckhand sees a request (pinned here, documented in docs/operating/availability.md).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { rawRequest, rawUpload } from "../helpers/raw-http.ts";
import { type BinaryServer, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.7 s), and 90 s as the first hook starts two servers (each start may take 45 s, test/helpers/server.ts).
setDefaultTimeout(90_000);

const space = scratch();
let server: BinaryServer;
/** The short names the Host tests use: a loopback-bound server answers only for names it is told (DNS rebinding guard). */
const SHORT_HOSTS = ["x", "ab", "a.b"].flatMap((name) => ["--allow-origin", `http://${name}`]);
let proxied: BinaryServer;
let deck: Uint8Array;

beforeAll(async () => {
  deck = await makeDeck({ pages: 2 });
  [server, proxied] = await Promise.all([space.start({ args: ["--rate-limit", "0", ...SHORT_HOSTS] }), space.start({ args: ["--rate-limit", "0", "--trust-proxy"] })]);
});
afterAll(() => space.cleanup());

function staged(of: BinaryServer): string[] {
  return readdirSync(join(of.dataDir, "staged"));
}

describe("the Host header", () => {
  const malformed: Array<[string, string | null, string?]> = [
    ["HTTP/1.0 without Host", null, "1.0"],
    ["an empty Host", ""],
    ["a Host with a space", "a b"],
    ["an unclosed IPv6 literal", "[::1"],
    ["user information", "user@x"],
    ["a port past 65535", "x:99999"],
    ["a bare percent sign", "%"],
    ["a backslash", "a\\b"],
  ];
  for (const [name, host, version] of malformed) {
    test(`${name}: 400 BAD_REQUEST problem before the body is read; nothing written`, async () => {
      const response = await rawRequest(server.port, rawUpload("/api/present", deck, { host, ...(version ? { version } : {}) }));
      expect(response.status).toBe(400);
      expect(response.headers["content-type"]).toBe("application/problem+json");
      expect(response.headers.connection).toBe("close");
      const problem = JSON.parse(response.body) as { code: string; detail: string };
      expect(problem.code).toBe("BAD_REQUEST");
      expect(problem.detail).toContain("Host");
      expect(staged(server)).toEqual([]);
    });
  }

  test("HTTP/1.0 with a Host is served", async () => {
    const response = await rawRequest(server.port, "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    expect(response.status).toBe(200);
  });

  test("a one-letter Host routes by the whole path (Elysia cut the path at a fixed offset)", async () => {
    const wrong = await rawRequest(server.port, "GET /abc/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect([wrong.status, JSON.parse(wrong.body).code]).toEqual([404, "NOT_FOUND"]);
    const right = await rawRequest(server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect([right.status, JSON.parse(right.body).status]).toEqual([200, "ok"]);
    for (const host of ["x:1", "ab", "a.b"]) {
      const response = await rawRequest(server.port, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect([host, response.status]).toEqual([host, 200]);
    }
  });

  test("a handoff link made under a short Host carries that Host", async () => {
    const response = await rawRequest(server.port, rawUpload("/api/present", deck, { host: "x:1" }));
    expect(response.status).toBe(200);
    expect((JSON.parse(response.body) as { url: string }).url).toStartWith("http://x:1/start/");
  });
});

describe("behind a proxy (--trust-proxy) without --base-url", () => {
  const forwarded = { "X-Forwarded-Host": "talks.example.org", "X-Forwarded-Proto": "https" };

  test("links use the forwarded host and scheme, not the port deckhand listens on", async () => {
    const response = await rawRequest(proxied.port, rawUpload("/api/present", deck, { host: `127.0.0.1:${proxied.port}`, headers: forwarded }));
    expect(response.status).toBe(200);
    expect((JSON.parse(response.body) as { url: string }).url).toStartWith("https://talks.example.org/start/");
  });

  test("so does the MCP discovery document, which says it varies with those headers", async () => {
    const response = await fetch(`${proxied.url}/.well-known/mcp.json`, { headers: forwarded });
    expect(((await response.json()) as { transport: { url: string } }).transport.url).toBe("https://talks.example.org/mcp");
    expect(response.headers.get("vary")).toBe("Host, X-Forwarded-Host, X-Forwarded-Proto");
  });
});

describe("/mcp and Origin (DNS rebinding)", () => {
  const list = (origin?: string) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  test("a page on another origin is refused with 403 ORIGIN_NOT_ALLOWED", async () => {
    const response = await list("http://evil.example:8080");
    expect(response.status).toBe(403);
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe("ORIGIN_NOT_ALLOWED");
    expect(problem.detail).toContain("--allow-origin");
  });

  test("no Origin (an agent) and a loopback page are served", async () => {
    expect((await list()).status).toBe(200);
    expect((await list("http://localhost:6274")).status).toBe(200);
  });
});

describe("what Bun answers itself, before deckhand sees the request (docs/operating/availability.md: Known issues)", () => {
  const cases: Array<[string, string, number]> = [
    ["a header section over 16 KiB", `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(17_000)}\r\n\r\n`, 431],
    ["a malformed Content-Length", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400],
    ["two Content-Length headers", "POST /api/present HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400],
    ["a garbage request line", "GARBAGE\r\n\r\n", 400],
    // Bun 1.4 answers these without calling the server's fetch or error
    // handler (no hook exists for a request it cannot parse), so deckhand cannot add a body.
    ["HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400],
    ["an unknown HTTP version", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505],
  ];
  for (const [name, request, status] of cases) {
    test(`${name}: ${status}, no body, connection closed`, async () => {
      const response = await rawRequest(server.port, request, { timeoutMs: 10_000 });
      expect(response.status).toBe(status);
      expect(response.headers.connection).toBe("close");
      expect(response.body).toBe("");
    });
  }
});
