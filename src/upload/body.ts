/**
 * @module upload/body
 * Read a request body chunk by chunk with an idle deadline: a body that stops arriving (a
 * slow-loris client, a dead network) is abandoned after `idleMs` with 408 REQUEST_TIMEOUT,
 * instead of holding a socket, a temp file and an upload slot for as long as the client likes.
 */
import { AppError } from "../base/errors.ts";
import { RATE_WINDOW_MS, RecentRate } from "./recent-rate.ts";
import { slotProgress } from "./slots.ts";

/** No byte of the body for this long and the request is given up (a phone on a bad line still sends within seconds). */
export const DEFAULT_BODY_IDLE_MS = 20_000;

function stalled(idleMs: number, what = `No data of the request body arrived for ${Math.round(idleMs / 1000)} s`): AppError {
  return new AppError("REQUEST_TIMEOUT", `${what}; send the request again on a steadier connection.`, {
    headers: { connection: "close" },
  });
}

/**
 * Slowest rate a streamed body may arrive at, judged over its last seconds once
 * MIN_RATE_GRACE_MS have passed: a phone on a poor line sends tens of KB/s, and a steady 4 KB/s
 * upload must finish; a trickle of a few bytes now and then (which resets any idle timer) is
 * what holds upload slots, and so is a burst followed by a trickle.
 */
export const MIN_BODY_BYTES_PER_SECOND_STREAMED = 2 * 1024;
/** Time before the rate is judged: a connection's slow start, a proxy's first buffering. */
export const MIN_RATE_GRACE_MS = 10_000;
/** How often a body that is waited for is judged again: the rate rule is this precise. */
const RATE_CHECK_MS = 500;

/**
 * The window the minimum rate is judged over: the idle timeout, at least RATE_WINDOW_MS. A
 * pause the idle timeout allows is then not cut short by the rate rule (unless the body was
 * already slow before it), and a burst buys at most this long of trickling afterwards.
 */
function minRateWindowMs(idleMs: number): number {
  return Math.max(RATE_WINDOW_MS, idleMs);
}

/** Whether a body read so far as `rate` shows is arriving too slowly at `now` (past the grace time). */
function behind(rate: RecentRate, windowMs: number, now: number): boolean {
  if (now - rate.started < MIN_RATE_GRACE_MS) return false;
  return rate.perSecond(windowMs, now) < MIN_BODY_BYTES_PER_SECOND_STREAMED;
}

function tooSlow(rate: RecentRate, windowMs: number, now: number): AppError {
  const seconds = Math.round(Math.min(windowMs, now - rate.started) / 1000);
  return stalled(
    0,
    `The request body arrived at ${Math.round(rate.perSecond(windowMs, now))} bytes/s over the last ${seconds} s, slower than the ${MIN_BODY_BYTES_PER_SECOND_STREAMED / 1024} KB/s the server needs to keep an upload slot for it`,
  );
}

/**
 * The body's chunks in order. Judged by progress, not by total time: throws REQUEST_TIMEOUT
 * when no chunk arrives for `idleMs`, or when, past MIN_RATE_GRACE_MS, the body's last
 * minRateWindowMs(idleMs) brought fewer than MIN_BODY_BYTES_PER_SECOND_STREAMED per second.
 */
export async function* bodyChunks(request: Request, idleMs: number): AsyncGenerator<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const windowMs = minRateWindowMs(idleMs);
  const rate = new RecentRate(windowMs, performance.now());
  // The upload slot this request holds (upload/slots): shown our rate, and able to take the slot back.
  const slot = slotProgress(request);
  if (slot) slot.rate = rate;
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
      // Its timer wakes at the idle deadline, and meanwhile every RATE_CHECK_MS to judge the rate.
      const waiting = performance.now();
      const next = await new Promise<Awaited<ReturnType<typeof reader.read>>>((resolve, reject) => {
        const judge = () => {
          const now = performance.now();
          if (now - waiting >= idleMs) return reject(stalled(idleMs));
          if (behind(rate, windowMs, now)) return reject(tooSlow(rate, windowMs, now));
          timer = setTimeout(judge, Math.min(idleMs - (now - waiting), RATE_CHECK_MS));
        };
        judge();
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
      rate.add(next.value.byteLength, performance.now());
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
