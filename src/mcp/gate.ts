/**
 * @module mcp/gate
 * At most `slots` holders at once; the others wait in line, each for at most `maxWaitMs`, and
 * at most `maxWaiting` of them. /mcp takes a slot for every request with a large body before
 * reading it: a tool call holds its base64 text, the parsed JSON and the decoded PDF in
 * memory, so concurrency is what bounds the server's memory. A waiting request's body stays
 * unread and costs (almost) nothing.
 */
import { AppError } from "../base/errors.ts";

export interface GateOptions {
  slots: number;
  maxWaitMs: number;
  maxWaiting: number;
}

/** Two large calls at once (~2.3× the body each, see docs/api/mcp.md). */
export const MCP_GATE_DEFAULTS: GateOptions = { slots: 2, maxWaitMs: 30_000, maxWaiting: 16 };

/** Bodies up to this size are not gated: tools/list, the handshake, small decks. */
export const LARGE_BODY_BYTES = 1024 * 1024;

export interface Gate {
  /** Resolves with the release function once a slot is free; SERVER_BUSY when the wait is over. */
  acquire(): Promise<() => void>;
  readonly active: number;
  readonly waiting: number;
}

/** Seconds a refused client should wait: about one call's time. */
const RETRY_AFTER_SECONDS = 5;

function busy(reason: string): AppError {
  return new AppError("SERVER_BUSY", `The server is busy with other large MCP tool calls (${reason}); retry in ${RETRY_AFTER_SECONDS} s.`, {
    headers: { "retry-after": String(RETRY_AFTER_SECONDS), connection: "close" },
  });
}

export function createGate(options: GateOptions = MCP_GATE_DEFAULTS): Gate {
  let active = 0;
  const queue: Array<{ grant: () => void }> = [];

  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next) next.grant();
      else active--;
    };
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire() {
      if (active < options.slots) {
        active++;
        return Promise.resolve(releaser());
      }
      if (queue.length >= options.maxWaiting) return Promise.reject(busy(`${queue.length} already waiting`));
      return new Promise((resolve, reject) => {
        const entry = {
          // The slot passes straight from the releasing holder to this one: `active` stays.
          grant: () => {
            clearTimeout(timer);
            resolve(releaser());
          },
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(entry), 1);
          reject(busy(`no slot within ${Math.round(options.maxWaitMs / 1000)} s`));
        }, options.maxWaitMs);
        queue.push(entry);
      });
    },
  };
}
