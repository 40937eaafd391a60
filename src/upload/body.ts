/**
 * @module upload/body
 * Read a request body chunk by chunk with an idle deadline: a body that stops arriving (a
 * slow-loris client, a dead network) is abandoned after `idleMs` with 408 REQUEST_TIMEOUT,
 * instead of holding a socket, a temp file and an upload slot for as long as the client likes.
 */
import { AppError } from "../errors.ts";
import { slotProgress } from "./slots.ts";

/** No byte of the body for this long and the request is given up (a phone on a bad line still sends within seconds). */
export const DEFAULT_BODY_IDLE_MS = 20_000;

function stalled(idleMs: number, what = `No data of the request body arrived for ${Math.round(idleMs / 1000)} s`): AppError {
  return new AppError("REQUEST_TIMEOUT", `${what}; send the request again on a steadier connection.`, {
    headers: { connection: "close" },
  });
}

/**
 * Slowest average rate a body may arrive at once MIN_RATE_GRACE_MS have passed (issue 20): a
 * phone on a poor line sends tens of KB/s, and a steady 4 KB/s upload must finish; a trickle
 * of a few bytes now and then (which resets any idle timer) is what holds upload slots.
 */
export const MIN_BODY_BYTES_PER_SECOND_STREAMED = 2 * 1024;
/** Time before the rate is judged: a connection's slow start, a proxy's first buffering. */
export const MIN_RATE_GRACE_MS = 10_000;

function tooSlow(received: number, elapsedMs: number): AppError {
  const rate = Math.round(received / Math.max(1, elapsedMs / 1000));
  return stalled(
    0,
    `The request body arrived at ${rate} bytes/s on average, slower than the ${MIN_BODY_BYTES_PER_SECOND_STREAMED / 1024} KB/s the server needs to keep an upload slot for it`,
  );
}

/**
 * The body's chunks in order. Judged by progress, not by total time: throws REQUEST_TIMEOUT
 * when no chunk arrives for `idleMs`, or when, past MIN_RATE_GRACE_MS, fewer bytes than
 * MIN_BODY_BYTES_PER_SECOND_STREAMED per second since the start have arrived.
 */
export async function* bodyChunks(request: Request, idleMs: number): AsyncGenerator<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const started = performance.now();
  let received = 0;
  // The upload slot this request holds (upload/slots): told our progress, and able to take the slot back.
  const slot = slotProgress(request);
  if (slot) slot.received = 0;
  // One reaction on the slot's promise, pointing at the current read only (a reaction per read
  // would keep every chunk reachable, as noted below).
  let failRead: ((error: unknown) => void) | null = null;
  let evictedBy: unknown = null;
  slot?.evicted.catch((error: unknown) => {
    evictedBy = error;
    failRead?.(error);
  });
  try {
    for (;;) {
      // A fresh promise and timer per read. (Racing every read against one long-lived "stalled"
      // promise kept each chunk reachable from that promise's reactions: a 200 MB upload held
      // 200 MB.) The deadline runs only while we wait for the client, not while the consumer works.
      // It is the sooner of the idle deadline and the moment the average rate falls below the minimum.
      const behindAt = started + MIN_RATE_GRACE_MS + (received / MIN_BODY_BYTES_PER_SECOND_STREAMED) * 1000;
      const rateMs = Math.max(0, behindAt - performance.now());
      const next = await new Promise<Awaited<ReturnType<typeof reader.read>>>((resolve, reject) => {
        timer = setTimeout(() => reject(rateMs < idleMs ? tooSlow(received, performance.now() - started) : stalled(idleMs)), Math.min(idleMs, rateMs));
        reader.read().then(resolve, reject);
        if (evictedBy) reject(evictedBy);
        failRead = reject;
      });
      failRead = null;
      clearTimeout(timer);
      if (next.done) {
        finished = true;
        return;
      }
      received += next.value.byteLength;
      if (slot) slot.received = received;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    // Unread rest: tell Bun we do not want it (the answer closes the connection).
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Slowest body rate a declared-length body may arrive at on average. Such bodies are read
 * natively (`request.text()`, which holds the bytes once; reading them chunk by chunk in JS
 * peaked ~300 MB higher for four 80 MB MCP calls), so the deadline covers the whole body:
 * the idle time plus its length at this rate.
 */
const MIN_BODY_BYTES_PER_SECOND = 32 * 1024;

/**
 * The whole body as text, at most `maxBytes` (else `tooLarge()`), within its deadline (408):
 * `idleMs` for a chunked body between chunks; for a declared length, `idleMs` plus the
 * length at MIN_BODY_BYTES_PER_SECOND for the whole body.
 */
export async function readBodyText(request: Request, maxBytes: number, idleMs: number, tooLarge: () => AppError): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isInteger(declared) && declared >= 0) {
    if (declared > maxBytes) throw tooLarge();
    const deadlineMs = idleMs + (declared / MIN_BODY_BYTES_PER_SECOND) * 1000;
    const text = request.text();
    // Past the deadline the answer closes the connection, which fails this read: expected.
    text.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(stalled(deadlineMs, `The request body did not arrive within ${Math.round(deadlineMs / 1000)} s`)), deadlineMs);
    });
    try {
      return await Promise.race([text, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(request, idleMs)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}
