/**
 * The compiled binary end to end. `npm test` builds `dist/deckhand` first; when it is missing
 * this suite fails (it never skips). The binary is copied into an empty directory and run
 * from there, so nothing beside it (node_modules, sources, bunfig) can help it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import type { HandoffRecord } from "../src/shared/handoff-record.ts";
import { makeDeck } from "./fixtures/pdfs.ts";
import { objStmRepairBomb } from "./fixtures/hostile-pdfs.ts";
import { BINARY, type BinaryServer, scratch } from "./helpers/server.ts";
import { waitFor } from "./helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.9 s).
setDefaultTimeout(60_000);

/** Large enough that the kernel's socket buffers cannot hold it: the server is still sending at SIGTERM. */
const SLOW_DOWNLOAD_BYTES = 20 * 1024 * 1024;
/** Bound on every wait in this file. */
const WAIT_MS = 15_000;

let binDir: string;
let binary: string;
const suite = scratch();
const tempDir = suite.dir;

/** Run the copied binary from its own directory (its cwd holds nothing but the binary). */
const start = (dataDir?: string): Promise<BinaryServer> => suite.start({ binary, cwd: binDir, dataDir: dataDir ?? tempDir("deckhand-bin-data-") });

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun run scripts/build.ts\` first (npm test does).`);
  binDir = tempDir("deckhand-bin-");
  binary = join(binDir, "deckhand");
  copyFileSync(BINARY, binary);
  // Made executable explicitly: a copy may not keep the mode on every filesystem.
  chmodSync(binary, 0o755);
});

afterAll(() => suite.cleanup());

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function present(server: BinaryServer, pdf: Uint8Array, filename: string): Promise<HandoffRecord & { token: string }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), filename);
  const res = await fetch(`${server.url}/api/present`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  const record = (await res.json()) as HandoffRecord;
  return { ...record, token: new URL(record.url).hash.replace(/^#t=/, "") };
}

const downloadUrl = (server: BinaryServer, record: { id: string; token: string }) =>
  `${server.url}/api/sessions/${record.id}/handoff?t=${encodeURIComponent(record.token)}`;

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = Bun.spawnSync([binary, ...args], { cwd: binDir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

describe("the binary alone in an empty directory", () => {
  test("runs present → handoff → complete over real HTTP, and the staged file is gone", async () => {
    expect(readdirSync(binDir)).toEqual(["deckhand"]);
    const server = await start();
    const pdf = await makeDeck({ pages: 7, title: "Binary e2e" });
    const record = await present(server, pdf, "Binary e2e.pdf");
    expect(record).toMatchObject({ filename: "Binary e2e", totalSlides: 7, bytes: pdf.length, sha256: sha256(pdf) });
    expect(record.url.startsWith(`${server.url}/start/${record.id}#t=`)).toBe(true);
    expect(readdirSync(join(server.dataDir, "staged"))).toEqual([`${record.id}.pdf`]);

    const download = await fetch(downloadUrl(server, record));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(sha256(bytes)).toBe(record.sha256);

    const complete = await fetch(`${server.url}/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": record.token, "content-type": "application/json" },
      body: JSON.stringify({ sha256: sha256(bytes) }),
    });
    expect(complete.status).toBe(200);
    expect(await complete.json()).toMatchObject({ ok: true });
    expect(readdirSync(join(server.dataDir, "staged"))).toEqual([]);

    const again = await fetch(downloadUrl(server, record));
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe("HANDOFF_CLAIMED");

    // Nothing was written beside the binary: the data went to --data-dir.
    expect(readdirSync(binDir)).toEqual(["deckhand"]);
    expect(await server.stop()).toBe(0);
  });

  test("--version prints the package version, the commit built from and the Bun runtime; --help the usage; both exit 0", () => {
    const version = run("--version");
    expect(version.code).toBe(0);
    const head = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"]).stdout.toString().trim();
    expect(head).toMatch(/^[0-9a-f]{12}$/);
    const escape = (text: string) => text.replace(/[.+()]/g, "\\$&");
    expect(version.stdout.trim()).toMatch(new RegExp(`^deckhand ${escape(pkg.version)} \\(commit ${head}(-dirty)?, bun ${escape(Bun.version)}, linux-x64\\)$`));

    const help = run("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: deckhand");
    for (const word of ["serve", "present", "token", "--data-dir", "--port", "--max-upload-mb", "--require-auth"]) {
      expect(help.stdout).toContain(word);
    }
    expect(help.stderr).toBe("");
  });
});

describe("embedded documents and commands", () => {
  test("serves the OpenAPI document and JSON Schemas intact from inside the binary", async () => {
    const server = await start();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string; components: { schemas: Record<string, any> } };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.schemas.CheckReport.type).toBe("object");
    expect(doc.components.schemas.CheckReport.required).toContain("pages");
    const schema = await fetch(`${server.url}/schema/check-report.schema.json`);
    expect(await schema.text()).toBe(await Bun.file(join(import.meta.dir, "..", "schemas", "check-report.schema.json")).text());
    const docs = await fetch(`${server.url}/docs/scalar.js`);
    expect(docs.status).toBe(200);
  });

  test("`deckhand check` runs the checker without a server: 0 valid, 2 not a PDF; each command has its own --help", async () => {
    const dir = tempDir("deckhand-bin-check-");
    const deck = join(dir, "deck.pdf");
    await Bun.write(deck, await makeDeck({ pages: 2 }));
    const ok = run("check", deck, "--json");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, pageCount: 2 });
    await Bun.write(join(dir, "notes.txt"), "plain text");
    expect(run("check", join(dir, "notes.txt")).code).toBe(2);
    for (const [command, usage] of [["check", "deckhand check FILE.pdf"], ["present", "deckhand present FILE.pdf"], ["mcp", "deckhand mcp"], ["token", "deckhand token create"]]) {
      const help = run(command!, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(usage!);
    }
  });

  test("`deckhand check` on several files reads them in its own process, and a file past --pdf-timeout ends the run with exit 2 and PDF_TOO_COMPLEX", async () => {
    const dir = tempDir("deckhand-bin-check-many-");
    const deck = join(dir, "deck.pdf");
    const bomb = join(dir, "bomb.pdf");
    await Bun.write(deck, await makeDeck({ pages: 2 }));
    // mupdf's repair of it runs for seconds: far past the deadline below.
    await Bun.write(bomb, objStmRepairBomb(80_000));
    const both = run("check", "--json", deck, deck);
    expect(both.code).toBe(0);
    expect(JSON.parse(both.stdout).map((e: { file: string; report: { ok: boolean } }) => [e.file, e.report.ok])).toEqual([[deck, true], [deck, true]]);
    // The watchdog thread ends the process from inside the binary, with the CLI's exit status.
    // 3 s: the small deck's read must fit on a loaded machine (this file runs beside the browser
    // lanes, yielding to them); the bomb's repair runs ~14 s.
    const stopped = run("check", "--json", "--pdf-timeout", "3", deck, bomb, deck);
    expect(stopped.code).toBe(2);
    const entries = JSON.parse(stopped.stdout);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ file: bomb, problem: { code: "PDF_TOO_COMPLEX" } });
    expect(stopped.stderr).toContain(`stopped at ${bomb}; not checked: ${deck}`);
  });
});

describe("one server per port and per data directory", () => {
  test("a second server on the same data directory refuses to start, and takes over after a crash", async () => {
    const first = await start();
    const second = Bun.spawnSync([binary, "serve", "--port", "0", "--data-dir", first.dataDir], { cwd: binDir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    expect(second.exitCode).toBe(2);
    expect(second.stderr.toString()).toContain(`Another deckhand (pid ${first.proc.pid}) is serving`);
    await first.kill9();
    // The crashed server's lock is stale: a restart takes it over.
    const restarted = await start(first.dataDir);
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
  });

  test("a second server on a port in use fails instead of sharing it", async () => {
    const first = await start();
    const second = Bun.spawnSync([binary, "serve", "--port", String(first.port), "--data-dir", tempDir("deckhand-bin-data-")], {
      cwd: binDir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    expect(second.exitCode).not.toBe(0);
    expect(second.stderr.toString()).toMatch(/EADDRINUSE|in use/i);
  });
});

describe("bodies larger than any limit", () => {
  test("get a FILE_TOO_LARGE problem document from deckhand, not Bun's empty 413", async () => {
    const server = await start();
    const head = [
      "POST /api/present HTTP/1.1",
      `Host: 127.0.0.1:${server.port}`,
      "Content-Type: multipart/form-data; boundary=x",
      `Content-Length: ${300 * 1024 * 1024}`,
      "",
      "",
    ].join("\r\n");
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect({ host: "127.0.0.1", port: server.port }, () => socket.write(head));
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\r\n\r\n") && text.includes("}")) socket.destroy();
      });
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
      setTimeout(() => socket.destroy(), WAIT_MS);
    });
    expect(answer).toStartWith("HTTP/1.1 413");
    expect(answer.toLowerCase()).toContain("content-type: application/problem+json");
    expect(answer).toContain('"code":"FILE_TOO_LARGE"');
  });
});

describe("failures never show Bun's error page", () => {
  test("a staged file removed behind the server's back is a 500 problem without token, path or stack", async () => {
    const server = await start();
    const record = await present(server, await makeDeck({ pages: 2 }), "gone.pdf");
    rmSync(join(server.dataDir, "staged", `${record.id}.pdf`));
    const res = await fetch(downloadUrl(server, record));
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.text();
    expect(JSON.parse(body).code).toBe("INTERNAL");
    for (const secret of [record.token, server.dataDir, "at "]) expect(body).not.toContain(secret);
  });
});

describe("SIGTERM", () => {
  test("exits 0 with the database closed, and a restart on the same data dir serves the staged deck", async () => {
    const dataDir = tempDir("deckhand-bin-data-");
    const first = await start(dataDir);
    const pdf = await makeDeck({ pages: 2 });
    const record = await present(first, pdf, "kept.pdf");
    expect(await first.stop()).toBe(0);
    // Closing the last connection checkpoints the WAL into the database and removes it.
    const wal = join(dataDir, "deckhand.db-wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);

    const second = await start(dataDir);
    const download = await fetch(downloadUrl(second, record));
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(pdf));
    expect(await second.stop()).toBe(0);
  });

  test("an in-flight slow download still receives its whole body, new connections are refused, then exit 0", async () => {
    const server = await start();
    const pdf = await makeDeck({ pages: 3, padToBytes: SLOW_DOWNLOAD_BYTES });
    const record = await present(server, pdf, "big.pdf");

    const response = slowGet(server.port, `/api/sessions/${record.id}/handoff?t=${encodeURIComponent(record.token)}`);
    await response.started;
    // The reader is paused: the server is blocked mid-body when the signal arrives.
    server.proc.kill("SIGTERM");
    await waitFor(async () => !(await canConnect(server.port)), "the listener to close", WAIT_MS);
    // A quiet spell, not a wait: the server must not exit while the download is unfinished.
    await Bun.sleep(200);
    expect(server.proc.exitCode).toBeNull();
    response.resume();

    const { status, headers, body } = await response.done;
    expect(status).toBe(200);
    expect(headers.get("content-length")).toBe(String(pdf.length));
    expect(body.length).toBe(pdf.length);
    expect(sha256(body)).toBe(record.sha256);
    expect(await server.proc.exited).toBe(0);
  }, 60_000);
});

describe("the request log", () => {
  test("one JSON line per request with method, path without query, status, duration and request id — never the token", async () => {
    const server = await start();
    const pdf = await makeDeck({ pages: 2 });
    const record = await present(server, pdf, "log.pdf");
    const download = await fetch(downloadUrl(server, record));
    await download.arrayBuffer();
    const wrongToken = await fetch(`${server.url}/api/sessions/${record.id}/handoff?t=not-the-token`);
    expect(wrongToken.status).toBe(403);
    const complete = await fetch(`${server.url}/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": record.token },
    });
    expect(complete.status).toBe(200);
    expect(await server.stop()).toBe(0);
    await waitFor(() => server.logs().includes('"event":"shutdown"'), "the shutdown log line", WAIT_MS);

    const stdout = server.logs();
    const lines = stdout.trim().split("\n");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.event === "request");
    const sessionPath = `/api/sessions/${record.id}/handoff`;
    const find = (method: string, path: string, status: number) =>
      requests.find((entry) => entry.method === method && entry.path === path && entry.status === status);

    const presentLine = find("POST", "/api/present", 200);
    const downloadLine = find("GET", sessionPath, 200);
    const forbiddenLine = find("GET", sessionPath, 403);
    const completeLine = find("POST", `${sessionPath}/complete`, 200);
    for (const line of [presentLine, downloadLine, forbiddenLine, completeLine]) {
      expect(line).toBeDefined();
      expect(typeof line!.ms).toBe("number");
      expect(line!.requestId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(downloadLine!.requestId).toBe(download.headers.get("x-request-id"));
    expect(completeLine!.requestId).toBe(complete.headers.get("x-request-id"));
    for (const entry of requests) expect(String(entry.path)).not.toContain("?");

    expect(stdout).not.toContain(record.token);
    expect(stdout).not.toContain("not-the-token");
    expect(stdout).not.toContain("t=");
  });
});

/** Is anything accepting TCP connections on this port? */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

interface SlowResponse {
  /** Resolves once the first bytes arrived; the socket is then paused. */
  started: Promise<void>;
  resume(): void;
  done: Promise<{ status: number; headers: Headers; body: Uint8Array }>;
}

/**
 * GET over a raw socket whose reading pauses after the first chunk, so TCP back-pressure
 * holds the server mid-body until `resume()`. Reads until Content-Length bytes or the close.
 * The head is parsed once; the body's chunks are only counted until the end, then joined once:
 * joining all of them at every chunk copied gigabytes for a 20 MB body, and under load (the
 * services stage yields beside the browser lanes) that kept the reader behind the server's
 * 10 s shutdown grace, which then cut the download.
 */
function slowGet(port: number, path: string): SlowResponse {
  let socket: Socket;
  let markStarted: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = new Promise<{ status: number; headers: Headers; body: Uint8Array }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let paused = false;
    let head: { status: number; headers: Headers; bodyStart: number } | null = null;
    socket = connect({ host: "127.0.0.1", port }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    const parseHead = () => {
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0) return null;
      const [statusLine, ...headerLines] = raw.subarray(0, end).toString("latin1").split("\r\n");
      const headers = new Headers();
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      return { status: Number(statusLine!.split(" ")[1]), headers, bodyStart: end + 4 };
    };
    const response = (h: NonNullable<typeof head>) => ({ status: h.status, headers: h.headers, body: new Uint8Array(Buffer.concat(chunks).subarray(h.bodyStart)) });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (!paused) {
        paused = true;
        socket.pause();
        markStarted();
      }
      head ??= parseHead();
      if (head && total - head.bodyStart >= Number(head.headers.get("content-length") ?? Number.NaN)) {
        socket.destroy();
        resolve(response(head));
      }
    });
    socket.on("end", () => {
      head ??= parseHead();
      if (head) resolve(response(head));
      else reject(new Error(`connection closed after ${total} bytes without a full header`));
    });
    socket.on("error", reject);
  });
  return { started, resume: () => socket.resume(), done };
}
