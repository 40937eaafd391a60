/**
 * @module live/socket-policy
 * What a live socket may do, whichever talk it joined: the instance's socket places (a cap
 * below the descriptor limit; one address's share of it shrinks as it fills, ./fair-share.ts),
 * the join deadline, the message budget of each role, the size, JSON and schema checks of
 * every incoming message, and the strikes after which a socket is closed. Refusals are logged
 * with the session code, role, message type and address — never with a secret or a body.
 */
import type { ServerWebSocket, WebSocketHandler } from "bun";
import { compiledOnFirstUse } from "../tools/compiled-check.ts";
import {
  LIVE_CLOSE,
  LIVE_PROTOCOL_VERSION,
  LiveClientMessage,
  type LiveClientMessageT,
  type LiveErrorCodeT,
  type LiveRoleT,
  type LiveServerMessageT,
  MAX_LIVE_MESSAGE_BYTES_IN,
} from "../shared/live-protocol.ts";
import type { Logger } from "../base/log.ts";
import { addressKey } from "../tools/address-key.ts";
import { mayTake } from "./fair-share.ts";
import type { Scheduler, Timer } from "./scheduler.ts";
import { TokenBucket } from "./token-bucket.ts";

const checkClient = compiledOnFirstUse(LiveClientMessage);

/** A socket that has not sent `join` within this time is closed. */
const JOIN_TIMEOUT_MS = 10_000;
/** Messages per second (and burst) per role: the presenter streams pointer moves at ~60–120 Hz. */
const BUDGET: Record<LiveRoleT | "joining", { rate: number; burst: number }> = {
  presenter: { rate: 120, burst: 240 },
  control: { rate: 10, burst: 20 },
  viewer: { rate: 2, burst: 10 },
  joining: { rate: 2, burst: 4 },
};
/** Refused messages a socket may send before it is closed (4429). */
const MAX_STRIKES = 20;

/** Bun's limits of every live socket (the handlers are the hub's). */
export const SOCKET_LIMITS = {
  // Bun closes a socket that sends a frame over this (1009); smaller oversize messages
  // get a TOO_LARGE error first (see admit()).
  maxPayloadLength: 1024 * 1024,
  // Slow viewers must not hold large buffers: past this (a few full states), Bun closes
  // the socket; the viewer reconnects and resyncs from hello. 1,000 stuck viewers hold 512 MB
  // at most, not 4 GB.
  backpressureLimit: 512 * 1024,
  closeOnBackpressureLimit: true,
  idleTimeout: 120,
  sendPings: true,
  perMessageDeflate: false,
} satisfies Omit<WebSocketHandler<LiveSocketData>, "message">;

export interface LiveSocketData {
  code: string;
  address: string;
  /** The address as seats are counted (an IPv6 address by its /64). */
  addressKey: string;
  role: LiveRoleT | null;
  /** Who votes and asks: the viewer's per-browser id from `join`, or one for this socket alone. */
  viewerId: string | null;
  generation: number;
  bucket: TokenBucket;
  strikes: number;
  joinTimer: Timer | null;
}

export type LiveSocket = ServerWebSocket<LiveSocketData>;

export interface SocketPolicyDeps {
  logger: Logger;
  scheduler: Scheduler;
  /** Live sockets this instance holds at most (below its descriptor limit). */
  maxSockets: number;
}

export class SocketPolicy {
  /** Live sockets upgraded and not yet closed (joined or not). */
  private sockets = 0;
  /** The same, by address key: one address holds its share of the places (./fair-share.ts). */
  private socketsByAddress = new Map<string, number>();

  constructor(private readonly deps: SocketPolicyDeps) {}

  /**
   * Take one of the instance's live socket places before an upgrade: "full" when all are held
   * (the upgrade is refused with a problem instead of running out of descriptors), "address"
   * when the address holds its share of them as they fill — a few addresses (sockets they never
   * join, across talks) cannot take them all. Given back when the socket closes, or by
   * `release` when the upgrade did not happen.
   */
  reserve(address: string): "ok" | "full" | "address" {
    const key = addressKey(address);
    const held = this.socketsByAddress.get(key) ?? 0;
    const verdict = mayTake({ size: this.deps.maxSockets, taken: this.sockets }, held);
    if (verdict !== "ok") return verdict === "full" ? "full" : "address";
    this.sockets++;
    this.socketsByAddress.set(key, held + 1);
    return "ok";
  }

  release(address: string): void {
    this.sockets = Math.max(0, this.sockets - 1);
    const key = addressKey(address);
    const held = (this.socketsByAddress.get(key) ?? 1) - 1;
    if (held > 0) this.socketsByAddress.set(key, held);
    else this.socketsByAddress.delete(key);
  }

  /** Live sockets this instance holds now. */
  get count(): number {
    return this.sockets;
  }

  /** Data for a socket about to be upgraded. */
  dataFor(code: string, address: string): LiveSocketData {
    return { code, address, addressKey: addressKey(address), role: null, viewerId: null, generation: 0, bucket: new TokenBucket(BUDGET.joining.rate, BUDGET.joining.burst), strikes: 0, joinTimer: null };
  }

  /** The socket is open: it must join within JOIN_TIMEOUT_MS. */
  opened(ws: LiveSocket): void {
    ws.data.joinTimer = this.deps.scheduler.after(JOIN_TIMEOUT_MS, () => this.refuse(ws, "JOIN_TIMEOUT", "Send a join message first, within 10 seconds of connecting.", LIVE_CLOSE.JOIN_TIMEOUT));
  }

  /** The socket joined as `role`: no deadline any more, and the role's budget. */
  joined(ws: LiveSocket, role: LiveRoleT): void {
    this.stopJoinTimer(ws);
    ws.data.role = role;
    ws.data.bucket = new TokenBucket(BUDGET[role].rate, BUDGET[role].burst);
  }

  stopJoinTimer(ws: LiveSocket): void {
    ws.data.joinTimer?.cancel();
    ws.data.joinTimer = null;
  }

  send(ws: LiveSocket, message: LiveServerMessageT): void {
    ws.send(JSON.stringify(message));
  }

  error(ws: LiveSocket, code: LiveErrorCodeT, message: string): void {
    this.send(ws, { v: LIVE_PROTOCOL_VERSION, type: "error", code, message });
  }

  /** Answer with an error and close with the matching code. */
  refuse(ws: LiveSocket, code: LiveErrorCodeT, message: string, closeCode: number): void {
    this.error(ws, code, message);
    ws.close(closeCode, code);
  }

  /** A refused message: logged (without secrets or body), answered, and counted. */
  strike(ws: LiveSocket, code: LiveErrorCodeT, message: string, type?: string): void {
    this.deps.logger.info("live_refused", { code: ws.data.code, role: ws.data.role ?? "joining", reason: code, ...(type ? { type } : {}), address: ws.data.address });
    ws.data.strikes++;
    if (ws.data.strikes > MAX_STRIKES) return this.refuse(ws, "RATE_LIMITED", "Too many refused messages; this socket is closed.", LIVE_CLOSE.RATE_LIMITED);
    this.error(ws, code, message);
  }

  /**
   * An incoming message within the size and the socket's budget, in JSON, matching the
   * protocol's schema; null when it was refused (answered and counted already).
   */
  admit(ws: LiveSocket, raw: string | Buffer): LiveClientMessageT | null {
    const size = typeof raw === "string" ? Buffer.byteLength(raw) : raw.byteLength;
    if (size > MAX_LIVE_MESSAGE_BYTES_IN) return this.refused(ws, "TOO_LARGE", `Messages are at most ${MAX_LIVE_MESSAGE_BYTES_IN} bytes.`);
    if (!ws.data.bucket.take()) return this.refused(ws, "RATE_LIMITED", "Too many messages; slow down.");
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8"));
    } catch {
      return this.refused(ws, "BAD_MESSAGE", "Messages are JSON text; see /schema/live-message.schema.json.");
    }
    if (!checkClient().Check(parsed)) {
      const first = checkClient().Errors(parsed).First();
      return this.refused(ws, "BAD_MESSAGE", `The message does not match /schema/live-message.schema.json${first ? ` (${first.path || "/"}: ${first.message})` : ""}.`);
    }
    return parsed as LiveClientMessageT;
  }

  private refused(ws: LiveSocket, code: LiveErrorCodeT, message: string): null {
    this.strike(ws, code, message);
    return null;
  }
}
