/**
 * HTTP at the socket level, for the requests a well-behaved client library never sends: bad
 * Host headers, HTTP/1.0, bodies that trickle in, connections from other loopback addresses
 * (127.0.0.2, …: Linux routes all of 127/8 to the loopback interface).
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function parseResponse(raw: string): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end === -1 ? "" : raw.slice(end + 4);
  if (headers["content-length"] !== undefined) body = body.slice(0, Number(headers["content-length"]));
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body };
}

export interface RawOptions {
  localAddress?: string;
  /** Give up (resolve with what arrived) after this long; RAW_ANSWER_MS by default. */
  timeoutMs?: number;
}

/**
 * How long a request waits for its answer by default: an answer that never comes, not a slow
 * one. So it is well past the server's 10 s for reading a PDF (--pdf-timeout), which an upload
 * may spend in full after its body arrives and its turn at a worker comes. On CI (2026-12-01),
 * in the services stage under load, a 2-page upload had no answer yet at the 10 s this was.
 */
const RAW_ANSWER_MS = 30_000;

/** Send `request` as is on a fresh connection and read until the server closes it (or the timeout). */
export function rawRequest(port: number, request: string | Uint8Array, options: RawOptions = {}): Promise<RawResponse & { raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString("latin1");
      resolve({ ...parseResponse(raw), raw });
    };
    const timer = setTimeout(done, options.timeoutMs ?? RAW_ANSWER_MS);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const raw = Buffer.concat(chunks).toString("latin1");
      const parsed = parseResponse(raw);
      // A complete response with a length: no need to wait for the close.
      if (parsed.status && parsed.headers["content-length"] !== undefined && Buffer.byteLength(parsed.body, "latin1") >= Number(parsed.headers["content-length"])) done();
    });
    socket.on("end", done);
    socket.on("error", (error) => (chunks.length ? done() : (clearTimeout(timer), reject(error))));
  });
}

/** A multipart body with one `file` part, split into head, content and tail. */
export function multipartParts(content: Uint8Array, filename = "deck.pdf"): { contentType: string; head: Buffer; content: Uint8Array; tail: Buffer } {
  const boundary = `----deckhand${Math.random().toString(16).slice(2)}`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content,
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/** A whole multipart upload request as bytes, with the given Host (or none) and extra headers. */
export function rawUpload(path: string, content: Uint8Array, options: { host?: string | null; version?: string; headers?: Record<string, string> } = {}): Buffer {
  const parts = multipartParts(content);
  const body = Buffer.concat([parts.head, parts.content, parts.tail]);
  const lines = [`POST ${path} HTTP/${options.version ?? "1.1"}`];
  if (options.host !== null) lines.push(`Host: ${options.host ?? "127.0.0.1"}`);
  lines.push(`Content-Type: ${parts.contentType}`, `Content-Length: ${body.length}`, "Connection: close");
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), body]);
}

export interface Trickle {
  /** The answer, once the server gives one (or closes the connection). */
  response: Promise<RawResponse & { raw: string }>;
  /** Stop sending and close the connection. */
  stop(): void;
  /** Bytes of the body sent so far. */
  sent(): number;
}

/**
 * An upload whose body arrives `bytesPerTick` every `intervalMs`: the headers and the first
 * part head at once (and `burstBytes` of the PDF with them), then the PDF bytes slowly, never
 * the end (unless `declaredBytes` is reached).
 */
export function trickleUpload(
  port: number,
  path: string,
  options: { localAddress?: string; bytesPerTick?: number; intervalMs?: number; declaredBytes?: number; burstBytes?: number; headers?: Record<string, string> } = {},
): Trickle {
  const parts = multipartParts(new Uint8Array(0));
  const declared = options.declaredBytes ?? 1024 * 1024;
  const length = parts.head.length + declared + parts.tail.length;
  let sent = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  let socket: Socket | undefined;
  const response = new Promise<RawResponse & { raw: string }>((resolve) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      clearInterval(interval);
      const raw = Buffer.concat(chunks).toString("latin1");
      resolve({ ...parseResponse(raw), raw });
    };
    socket = connect({ port, host: "127.0.0.1", ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
    socket.on("connect", () => {
      const extra = Object.entries(options.headers ?? {}).map(([n, v]) => `${n}: ${v}\r\n`).join("");
      socket!.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${parts.contentType}\r\nContent-Length: ${length}\r\n${extra}\r\n`);
      socket!.write(parts.head);
      socket!.write("%PDF-1.7\n");
      sent = 9;
      if (options.burstBytes) {
        const burst = Math.min(options.burstBytes, declared - sent);
        socket!.write(Buffer.alloc(burst, 0x20));
        sent += burst;
      }
      interval = setInterval(() => {
        if (socket!.destroyed) return clearInterval(interval);
        const n = Math.min(options.bytesPerTick ?? 1, declared - sent);
        if (n <= 0) return clearInterval(interval);
        socket!.write(Buffer.alloc(n, 0x20));
        sent += n;
      }, options.intervalMs ?? 200);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", finish);
    socket.on("error", () => {});
  });
  return {
    response,
    stop: () => {
      clearInterval(interval);
      socket?.destroy();
    },
    sent: () => sent,
  };
}

export interface HealthWatch {
  /** Stop polling; the latencies seen (ms) and how many requests failed or timed out. */
  stop(): Promise<{ latencies: number[]; max: number; failures: number }>;
}

/** Poll `{url}/healthz` back to back (every `intervalMs`) and record each answer's latency. */
export function watchHealth(url: string, intervalMs = 50, timeoutMs = 5000): HealthWatch {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - started);
      await Bun.sleep(intervalMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { latencies, max: Math.max(0, ...latencies), failures };
    },
  };
}
