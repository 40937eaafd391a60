/**
 * Large /mcp calls: only a few are processed at once (the rest wait, unread, for a slot, or
 * get 503 SERVER_BUSY with Retry-After), and a server's memory stays bounded under them.
 */
// npm test: alone — its bounds are wall-clock times of the server under its own load, so it runs with nothing beside it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/app.ts";
import { testConfig } from "../../src/base/config.ts";
import { silentLogger } from "../../src/base/log.ts";
import { createGate } from "../../src/mcp/gate.ts";
import { createRuntime } from "../../src/composition/runtime.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { freePort, waitForHealthy } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4.9 s).
setDefaultTimeout(60_000);

const ACCEPT = "application/json, text/event-stream";
const MB = 1024 * 1024;
const ROOT = join(import.meta.dir, "..", "..");

function toolCall(name: string, args: Record<string, unknown>, id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

describe("/mcp admits large calls through a gate", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-gate-"));
  const runtime = createRuntime(testConfig({ dataDir, rateLimit: 0 }), { logger: silentLogger });
  const gate = createGate({ slots: 1, maxWaitMs: 150, maxWaiting: 4 });
  runtime.deps.mcpGate = gate;
  const app = buildApp(runtime.deps);
  afterAll(() => {
    runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("while a large call holds the only slot, another large one waits and then gets 503 SERVER_BUSY with Retry-After; small ones pass", async () => {
    const deck = await makeDeck({ pages: 1, padToBytes: 1.2 * MB });
    const body = new TextEncoder().encode(toolCall("check_pdf", { pdf_base64: Buffer.from(deck).toString("base64") }));
    expect(body.length).toBeGreaterThan(MB);
    const post = (payload: BodyInit, length: number) =>
      app.handle(
        new Request("http://deckhand.test/mcp", {
          method: "POST",
          headers: { accept: ACCEPT, "content-type": "application/json", "content-length": String(length), "mcp-protocol-version": "2025-06-18" },
          body: payload,
        }),
      );

    // The first call's body arrives slowly: it holds the slot until the last byte.
    let finish!: () => void;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.subarray(0, 1000));
        finish = () => {
          controller.enqueue(body.subarray(1000));
          controller.close();
        };
      },
    });
    const first = post(stalled, body.length);
    await waitFor(() => gate.active === 1, "the first call to take the slot");

    const started = Date.now();
    const busy = await post(body, body.length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("content-type")).toStartWith("application/problem+json");
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await busy.json()) as { code: string }).code).toBe("SERVER_BUSY");

    // A small request is not gated.
    const list = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), 48);
    expect(list.status).toBe(200);

    finish();
    const done = await first;
    expect(done.status).toBe(200);
    const result = ((await done.json()) as { result: { isError?: boolean; structuredContent: { ok: boolean } } }).result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.ok).toBe(true);
    // The slot is free again: the same large call now goes through at once.
    expect((await post(body, body.length)).status).toBe(200);
  });

  test("a body that is not JSON still gets the SDK's JSON-RPC parse error", async () => {
    const res = await app.handle(
      new Request("http://deckhand.test/mcp", { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json" }, body: "{not json" }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

/** kB → MB of a /proc/PID/status field. */
function statusMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

describe("peak memory of a server under concurrent large check_pdf calls", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-mem-"));
  let server: ReturnType<typeof Bun.spawn> | null = null;
  afterAll(async () => {
    server?.kill("SIGKILL");
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("4 concurrent 60 MB calls all succeed (or get SERVER_BUSY) and the server's peak RSS stays under 600 MB", async () => {
    const deck = await makeDeck({ pages: 1, padToBytes: 60 * MB });
    const sha256 = new Bun.CryptoHasher("sha256").update(deck).digest("hex");
    const body = new TextEncoder().encode(toolCall("check_pdf", { pdf_base64: Buffer.from(deck).toString("base64") }));
    const port = await freePort();
    server = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir, "--rate-limit", "0"], {
      cwd: dataDir,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealthy(url, server, () => new Response(server!.stderr as ReadableStream).text());
    const pid = server.pid;
    const idle = statusMb(pid, "VmRSS");

    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const res = await fetch(`${url}/mcp`, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json" }, body });
        return { status: res.status, retryAfter: res.headers.get("retry-after"), json: (await res.json()) as Record<string, any> };
      }),
    );
    const peak = statusMb(pid, "VmHWM");
    console.log(`[mcp memory] 4 concurrent check_pdf calls of a ${(deck.length / MB).toFixed(0)} MB PDF (${(body.length / MB).toFixed(0)} MB bodies): server idle ${idle.toFixed(0)} MB, peak RSS ${peak.toFixed(0)} MB; answers ${answers.map((a) => a.status).join(", ")}`);
    for (const answer of answers) {
      if (answer.status === 503) {
        expect(answer.json.code).toBe("SERVER_BUSY");
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      } else {
        expect(answer.status).toBe(200);
        expect(answer.json.result.isError).toBeUndefined();
        expect(answer.json.result.structuredContent.ok).toBe(true);
        expect(answer.json.result.structuredContent.document).toMatchObject({ bytes: deck.length, sha256: sha256 });
      }
    }
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(peak).toBeLessThan(600);
  }, 120_000);
});
