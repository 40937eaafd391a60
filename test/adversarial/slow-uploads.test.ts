/**
 * Slow uploads against the compiled binary: a body that stops arriving is dropped (408), an
 * address gets a bounded number of uploads at once (429) and the server a bounded total (503),
 * each refusal closing its connection; under a lowered file-descriptor limit a crowd of
 * trickling uploads from many addresses leaves /healthz answering; nothing stays on disk.
 *
 * Other client addresses come from the loopback network (127.0.0.2, …), which Linux routes to
 * the loopback interface: the server still listens on 127.0.0.1 only.
 */
// npm test: foreground — its bounds are wall-clock times of the server under its own load; it mostly waits on bodies that stop arriving, so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { type Trickle, trickleUpload, watchHealth } from "../helpers/raw-http.ts";
import { type BinaryServer, scratch } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4.3 s).
setDefaultTimeout(45_000);

const space = scratch();
afterAll(() => space.cleanup());

function staged(server: BinaryServer): string[] {
  return readdirSync(join(server.dataDir, "staged"));
}

async function present(server: BinaryServer, localAddress?: string): Promise<number> {
  const { rawRequest, rawUpload } = await import("../helpers/raw-http.ts");
  const response = await rawRequest(server.port, rawUpload("/api/present", await makeDeck({ pages: 1 })), localAddress ? { localAddress } : {});
  return response.status;
}

describe("a body that stops arriving", () => {
  test("on /mcp too: a JSON body that never completes is dropped with 408 within its deadline", async () => {
    const server = await space.start({ args: ["--body-timeout", "1"] });
    const { rawRequest } = await import("../helpers/raw-http.ts");
    // 100 bytes declared, 10 sent: the deadline is 1 s plus 100 bytes at 32 KiB/s.
    const started = performance.now();
    const response = await rawRequest(
      server.port,
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc"',
      { timeoutMs: 10_000 },
    );
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body).code).toBe("REQUEST_TIMEOUT");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("is dropped after --body-timeout with 408 REQUEST_TIMEOUT, its temp file removed", async () => {
    const server = await space.start({ args: ["--body-timeout", "1"] });
    const trickle = trickleUpload(server.port, "/api/present", { intervalMs: 60_000 });
    await waitFor(() => staged(server).some((name) => name.endsWith(".tmp")), "the temp file");
    const started = performance.now();
    const response = await trickle.response;
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body).code).toBe("REQUEST_TIMEOUT");
    expect(response.headers.connection).toBe("close");
    expect(performance.now() - started).toBeLessThan(5000);
    expect(staged(server)).toEqual([]);
  });

  test("a body that keeps trickling is not idle: it holds its slot until it ends", async () => {
    const server = await space.start({ args: ["--body-timeout", "1"] });
    const trickle = trickleUpload(server.port, "/api/check", { intervalMs: 200 });
    // Twice the body timeout passes on purpose (not a wait for anything): the trickle must outlive it.
    await Bun.sleep(2000);
    expect(trickle.sent()).toBeGreaterThan(5);
    expect(staged(server).filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
    trickle.stop();
    await waitFor(() => staged(server).length === 0, "the temp file to go");
  });
});

/**
 * A refusal closes the connection while the client is still sending its body; the client's
 * kernel may then take the server's close as a reset and drop the answer it had not yet read
 * (docs/operating/availability.md, Known issues). So the client sees either the problem document or a bare close.
 */
function expectRefusal(response: { status: number; body: string; headers: Record<string, string> }, status: number, code: string): void {
  if (response.status === 0) return;
  expect(response.status).toBe(status);
  expect(JSON.parse(response.body).code).toBe(code);
  expect(response.headers["retry-after"]).toBe("10");
  expect(response.headers.connection).toBe("close");
}

describe("upload slots", () => {
  test("per address (429 TOO_MANY_UPLOADS) and in total (503 SERVER_BUSY), refused at once, connection closed", async () => {
    const server = await space.start({ args: ["--max-uploads-per-address", "2", "--max-uploads", "4", "--rate-limit", "0"] });
    const trickles: Trickle[] = [];
    const open = (localAddress: string) => {
      const trickle = trickleUpload(server.port, "/api/present", { localAddress, intervalMs: 200 });
      trickles.push(trickle);
      return trickle;
    };
    try {
      open("127.0.0.1");
      open("127.0.0.1");
      await waitFor(() => staged(server).filter((n) => n.endsWith(".tmp")).length === 2, "two uploads receiving");
      const third = await open("127.0.0.1").response;
      expectRefusal(third, 429, "TOO_MANY_UPLOADS");
      // Another address still gets in…
      expect(await present(server, "127.0.0.2")).toBe(200);
      open("127.0.0.3");
      open("127.0.0.4");
      await waitFor(() => staged(server).filter((n) => n.endsWith(".tmp")).length === 4, "four uploads receiving");
      // …until the server has none left.
      const fifth = await open("127.0.0.5").response;
      expectRefusal(fifth, 503, "SERVER_BUSY");
      // The server's own record, whatever reached the client.
      const refusals = () =>
        server
          .logs()
          .split("\n")
          .filter((line) => line.includes('"event":"request"'))
          .map((line) => JSON.parse(line).status as number)
          .filter((s) => s === 429 || s === 503)
          .sort();
      await waitFor(() => refusals().length === 2, "both refusals in the request log");
      expect(refusals()).toEqual([429, 503]);
    } finally {
      for (const trickle of trickles) trickle.stop();
    }
    await waitFor(() => staged(server).every((name) => name.endsWith(".pdf")), "every temp file to go");
    // A stopped upload's temp file goes before its handler gives the slot back: under load the
    // next request can fall between the two. The slots must come back, within the wait's bound.
    await waitFor(async () => (await present(server)) === 200, "a present from 127.0.0.1 once its stopped uploads' slots are back");
  });

  test("a crowd of trickling uploads from 30 addresses under a 256-descriptor limit: /healthz answers throughout", async () => {
    const server = await space.start({
      args: ["--max-uploads", "32", "--body-timeout", "5", "--rate-limit", "0"],
      // Bun raises the soft limit to the hard one: lower both.
      wrap: ["prlimit", "--nofile=256:256"],
    });
    const health = watchHealth(server.url, 50, 3000);
    const trickles: Trickle[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        trickles.push(trickleUpload(server.port, "/api/present", { localAddress: `127.0.1.${(i % 30) + 1}`, intervalMs: 500 }));
        if (i % 20 === 19) await Bun.sleep(20); // the crowd arrives over time: pacing, not a wait
      }
      const statuses: number[] = [];
      for (const trickle of trickles) void trickle.response.then((r) => statuses.push(r.status));
      // Refused as they arrive, while the admitted ones still trickle (their body deadline
      // is 5 s away at every moment): at most 32 receive, the other 268 are answered.
      await waitFor(() => statuses.length >= 268, "268 refusals", 15_000);
      // 0: the connection was closed before the answer could be read (the client was still
      // sending its body, so the close came as a reset: docs/operating/availability.md, Known issues). Never another status.
      expect(statuses.filter((s) => s !== 429 && s !== 503 && s !== 0)).toEqual([]);
      expect(statuses.filter((s) => s === 429 || s === 503).length).toBeGreaterThan(200);
      expect(staged(server).filter((n) => n.endsWith(".tmp")).length).toBeLessThanOrEqual(32);
    } finally {
      for (const trickle of trickles) trickle.stop();
    }
    const seen = await health.stop();
    expect(seen.failures).toBe(0);
    expect(seen.max).toBeLessThan(1000);
    await waitFor(() => staged(server).length === 0, "every temp file to go");
    expect(await present(server)).toBe(200);
  });
});
