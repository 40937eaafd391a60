/**
 * @module live/hub
 * The sockets of live sessions on this instance: who joined which session in which role, the
 * in-memory snapshot of each session (loaded from its row, saved back), the fan-out of the
 * presenter's messages to viewers and remotes on Bun's native pub/sub (one topic per
 * session), the presenter's grace period, and the per-socket limits. Messages are also put on
 * the `LiveBus`, so other instances serving the same session (PostgreSQL) can publish them to
 * their own sockets; this instance ignores its own.
 *
 * Every incoming message is validated against the protocol's schema; a role may only send
 * its own messages. Refusals are logged with the session code, role, message type and
 * address — never with a secret or a message body.
 */
import type { ServerWebSocket, WebSocketHandler } from "bun";
import { randomBytes } from "node:crypto";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import {
  LIVE_CLOSE,
  LIVE_PROTOCOL_VERSION,
  LiveClientMessage,
  type LiveClientMessageT,
  type LiveCountsT,
  type LiveErrorCodeT,
  type LiveRoleT,
  type LiveServerMessageT,
  type LiveSnapshot,
  MAX_LIVE_MESSAGE_BYTES_IN,
  liveStateOverBounds,
  LiveState,
  mergeLive,
} from "../shared/live-protocol.ts";
import type { LiveBus, LiveSubscription } from "../core/live.ts";
import { MAX_LIVE_MESSAGE_BYTES } from "../core/live.ts";
import type { LiveEndReason, LiveSessionRow } from "../core/live-sessions.ts";
import { isoSeconds } from "../tools/time.ts";
import { tokenMatches } from "../handoff/secrets.ts";
import type { Logger } from "../log.ts";
import { errorFields } from "../log.ts";
import type { LiveService } from "./service.ts";
import { TokenBucket } from "./token-bucket.ts";
import { addressKey } from "../tools/address-key.ts";

const checkClient = TypeCompiler.Compile(LiveClientMessage);
const checkState = TypeCompiler.Compile(LiveState);

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
/** Counts change with every join and leave; they are sent at most this often. */
const COUNTS_INTERVAL_MS = 250;
/** Pointer moves and strokes are kept in memory and written to the row at most this often. */
const POINTER_SAVE_MS = 1_000;
/** The instance holding a presenter says so on the bus this often… */
const PRESENCE_MS = 30_000;
/** …and other instances count it as present for this long after hearing from it. */
const PRESENCE_TTL_MS = 2 * PRESENCE_MS + 5_000;
/** The row's "presenter last seen" is renewed this often while connected (less for a short grace). */
const SEEN_MS = 60_000;

/**
 * What instances tell each other about a talk on the LiveBus. `fanout`: a message for the
 * talk's viewers and remotes (`data: null` when it was too large for the bus: reload the
 * saved state); `ended`; `command`: a remote's command for whichever instance holds the
 * presenter; `rotated`; `presence`: "the presenter is connected here" (also the answer to
 * `query`, which an instance sends when it loads a talk).
 */
type Envelope = { from: string } & (
  | { kind: "fanout"; data: string | null }
  | { kind: "ended"; reason: LiveEndReason }
  | { kind: "command"; data: string }
  | { kind: "rotated"; generation: number }
  | { kind: "presence" }
  | { kind: "query" }
);
type EnvelopeBody = Envelope extends infer E ? (E extends unknown ? Omit<E, "from"> : never) : never;

export interface LiveSocketData {
  code: string;
  address: string;
  /** The address as seats are counted (an IPv6 address by its /64). */
  addressKey: string;
  role: LiveRoleT | null;
  generation: number;
  bucket: TokenBucket;
  strikes: number;
  joinTimer: ReturnType<typeof setTimeout> | null;
}

type Socket = ServerWebSocket<LiveSocketData>;

interface Room {
  code: string;
  row: LiveSessionRow;
  snapshot: LiveSnapshot;
  presenter: Socket | null;
  controls: Set<Socket>;
  viewers: Set<Socket>;
  /** Viewer seats by address key: one address holds at most --max-viewers-per-address. */
  viewersByAddress: Map<string, number>;
  graceTimer: ReturnType<typeof setTimeout> | null;
  pausedUntil: number | null;
  countsTimer: ReturnType<typeof setTimeout> | null;
  saveTimer: ReturnType<typeof setTimeout> | null;
  bus: Promise<LiveSubscription> | null;
  /** Until when a presenter on another instance counts as connected (0: none known). */
  remotePresenterUntil: number;
  presenceTimer: ReturnType<typeof setInterval> | null;
  seenTimer: ReturnType<typeof setInterval> | null;
}

export interface LiveHubDeps {
  service: LiveService;
  bus: LiveBus;
  logger: Logger;
  clock: () => number;
  maxViewers: number;
  /** Viewer seats of one talk one address (IPv6 /64) may hold. */
  maxViewersPerAddress: number;
  /** Live sockets this instance holds at most (below its descriptor limit). */
  maxSockets: number;
  graceMs: number;
  /** Counts failed joins (wrong secret) per address; see http/live-ws.ts. */
  onAuthFailure: (address: string) => void;
}

const topicOf = (code: string) => `live:${code}`;
const encode = (message: LiveServerMessageT) => JSON.stringify(message);

export class LiveHub {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();
  private readonly instance = randomBytes(8).toString("hex");
  private publishLocal: (topic: string, data: string) => void = () => {};
  /** Live sockets upgraded and not yet closed (joined or not). */
  private sockets = 0;
  /** The same, by address key: one address holds at most half the instance's places. */
  private socketsByAddress = new Map<string, number>();

  constructor(private readonly deps: LiveHubDeps) {
    deps.service.onEnd = (code, reason, already) => this.ended(code, reason, { bus: !already });
    deps.service.onRotate = (code, generation) => void this.rotated(code, generation);
    deps.service.presenterHere = (code) => !!this.rooms.get(code)?.presenter;
  }

  /** Bun's server, once it listens: its `publish` fans a message out to a topic's sockets. */
  attach(server: { publish(topic: string, data: string): unknown }): void {
    this.publishLocal = (topic, data) => void server.publish(topic, data);
  }

  /** Viewers connected to `code` on this instance (for the info route's "full" answer). */
  viewerCount(code: string): number {
    return this.rooms.get(code)?.viewers.size ?? 0;
  }

  counts(code: string): LiveCountsT {
    const room = this.rooms.get(code);
    return { viewers: room?.viewers.size ?? 0, controls: room?.controls.size ?? 0, presenter: !!room && this.presenterConnected(room) };
  }

  isFull(code: string): boolean {
    return this.viewerCount(code) >= this.deps.maxViewers;
  }

  /**
   * Take one of the instance's live socket places before an upgrade; false when all are held
   * (the upgrade is refused with a problem instead of running out of descriptors). Given back
   * when the socket closes, or by `releaseSocket` when the upgrade did not happen.
   */
  reserveSocket(address: string): "ok" | "full" | "address" {
    if (this.sockets >= this.deps.maxSockets) return "full";
    const key = addressKey(address);
    const held = this.socketsByAddress.get(key) ?? 0;
    // Half the places: one address (sockets it never joins, across talks) cannot take them all.
    if (held >= Math.max(1, Math.ceil(this.deps.maxSockets / 2))) return "address";
    this.sockets++;
    this.socketsByAddress.set(key, held + 1);
    return "ok";
  }

  releaseSocket(address: string): void {
    this.sockets = Math.max(0, this.sockets - 1);
    const key = addressKey(address);
    const held = (this.socketsByAddress.get(key) ?? 1) - 1;
    if (held > 0) this.socketsByAddress.set(key, held);
    else this.socketsByAddress.delete(key);
  }

  /** Live sockets this instance holds now. */
  get socketCount(): number {
    return this.sockets;
  }

  /** Data for a socket about to be upgraded. */
  socketData(code: string, address: string): LiveSocketData {
    return { code, address, addressKey: addressKey(address), role: null, generation: 0, bucket: new TokenBucket(BUDGET.joining.rate, BUDGET.joining.burst), strikes: 0, joinTimer: null };
  }

  readonly websocket: WebSocketHandler<LiveSocketData> = {
    // Bun closes a socket that sends a frame over this (1009); smaller oversize messages
    // get a TOO_LARGE error first (see message()).
    maxPayloadLength: 1024 * 1024,
    // Slow viewers must not hold large buffers: past this (a few full states), Bun closes
    // the socket; the viewer reconnects and resyncs from hello. 1,000 stuck viewers hold 512 MB
    // at most, not 4 GB.
    backpressureLimit: 512 * 1024,
    closeOnBackpressureLimit: true,
    idleTimeout: 120,
    sendPings: true,
    perMessageDeflate: false,
    open: (ws) => {
      ws.data.joinTimer = setTimeout(() => this.refuse(ws, "JOIN_TIMEOUT", "Send a join message first, within 10 seconds of connecting.", LIVE_CLOSE.JOIN_TIMEOUT), JOIN_TIMEOUT_MS);
    },
    message: (ws, raw) => {
      void this.onMessage(ws, raw).catch((error) => {
        this.deps.logger.error("live_message_failed", { code: ws.data.code, role: ws.data.role, ...errorFields(error) });
        this.send(ws, { v: 1, type: "error", code: "INTERNAL", message: "The server could not handle that message; reconnect." });
      });
    },
    close: (ws) => {
      this.releaseSocket(ws.data.address);
      this.left(ws);
    },
  };

  private send(ws: Socket, message: LiveServerMessageT): void {
    ws.send(encode(message));
  }

  private error(ws: Socket, code: LiveErrorCodeT, message: string): void {
    this.send(ws, { v: LIVE_PROTOCOL_VERSION, type: "error", code, message });
  }

  /** Answer with an error and close with the matching code. */
  private refuse(ws: Socket, code: LiveErrorCodeT, message: string, closeCode: number): void {
    this.error(ws, code, message);
    ws.close(closeCode, code);
  }

  /** A refused message: logged (without secrets or body), answered, and counted. */
  private strike(ws: Socket, code: LiveErrorCodeT, message: string, type?: string): void {
    this.deps.logger.info("live_refused", { code: ws.data.code, role: ws.data.role ?? "joining", reason: code, ...(type ? { type } : {}), address: ws.data.address });
    ws.data.strikes++;
    if (ws.data.strikes > MAX_STRIKES) return this.refuse(ws, "RATE_LIMITED", "Too many refused messages; this socket is closed.", LIVE_CLOSE.RATE_LIMITED);
    this.error(ws, code, message);
  }

  private async onMessage(ws: Socket, raw: string | Buffer): Promise<void> {
    const size = typeof raw === "string" ? Buffer.byteLength(raw) : raw.byteLength;
    if (size > MAX_LIVE_MESSAGE_BYTES_IN) return this.strike(ws, "TOO_LARGE", `Messages are at most ${MAX_LIVE_MESSAGE_BYTES_IN} bytes.`);
    if (!ws.data.bucket.take()) return this.strike(ws, "RATE_LIMITED", "Too many messages; slow down.");
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8"));
    } catch {
      return this.strike(ws, "BAD_MESSAGE", "Messages are JSON text; see /schema/live-message.schema.json.");
    }
    if (!checkClient.Check(parsed)) {
      const first = checkClient.Errors(parsed).First();
      return this.strike(ws, "BAD_MESSAGE", `The message does not match /schema/live-message.schema.json${first ? ` (${first.path || "/"}: ${first.message})` : ""}.`);
    }
    const message = parsed as LiveClientMessageT;
    if (message.type === "ping") return this.send(ws, { v: 1, type: "pong", ...(message.t !== undefined ? { t: message.t } : {}), serverTime: this.deps.clock() });
    if (ws.data.role === null) {
      if (message.type !== "join") return this.strike(ws, "NOT_ALLOWED", "Send a join message first.", message.type);
      return this.join(ws, message.role, message.secret);
    }
    const room = this.rooms.get(ws.data.code);
    if (!room) return;
    const role = ws.data.role;
    if (role === "presenter" && room.presenter === ws) {
      if (message.type === "state" || message.type === "pointer" || message.type === "ink") return this.relay(ws, room, message);
      if (message.type === "settings") return this.settings(room, message.allowDownload);
    }
    if (role === "control" && message.type === "command") {
      if (message.action === "goto" && message.page === undefined) return this.strike(ws, "BAD_MESSAGE", "A goto command needs a page.", message.type);
      if (ws.data.generation !== room.row.controlGeneration) return this.refuse(ws, "CONTROL_ROTATED", "The presenter renewed the remote link; open the new one.", LIVE_CLOSE.CONTROL_ROTATED);
      const data = encode({ ...message, v: 1 });
      // The presenter may be connected to another instance.
      if (room.presenter) room.presenter.send(data);
      else this.toBus(room, { kind: "command", data });
      return;
    }
    this.strike(ws, "NOT_ALLOWED", role === "viewer" ? "Viewers follow the talk; they cannot change it." : `A ${role} socket may not send "${message.type}".`, message.type);
  }

  private async room(code: string): Promise<Room> {
    const existing = this.rooms.get(code);
    if (existing) return existing;
    let pending = this.loading.get(code);
    if (!pending) {
      pending = (async () => {
        const row = await this.deps.service.open(code);
        let snapshot: LiveSnapshot = { seq: 0, state: null };
        if (row.stateJson) {
          try {
            snapshot = JSON.parse(row.stateJson) as LiveSnapshot;
            // A state saved before every object was closed may carry unknown properties or be
            // over today's bounds: it is dropped (the seq stays), the presenter sends it again.
            if (snapshot.state !== null && (!checkState.Check(snapshot.state) || liveStateOverBounds(snapshot.state) !== null)) snapshot = { seq: snapshot.seq, state: null };
          } catch {
            // A damaged snapshot only costs the resync: the presenter sends its state again.
          }
        }
        const room: Room = {
          code,
          row,
          snapshot,
          presenter: null,
          controls: new Set(),
          viewers: new Set(),
          viewersByAddress: new Map(),
          graceTimer: null,
          pausedUntil: null,
          countsTimer: null,
          saveTimer: null,
          bus: null,
          remotePresenterUntil: 0,
          presenceTimer: null,
          seenTimer: null,
        };
        room.bus = this.deps.bus.subscribe(code, (data) => this.fromBus(room, data));
        // Is the presenter connected to another instance? (It answers with `presence`.)
        void room.bus.then(() => this.toBus(room, { kind: "query" }));
        this.rooms.set(code, room);
        // No presenter yet (a restart, or a presenter still connecting): the grace period runs.
        this.startGrace(room);
        return room;
      })().finally(() => this.loading.delete(code));
      this.loading.set(code, pending);
    }
    return pending;
  }

  private async join(ws: Socket, role: LiveRoleT, secret: string | undefined): Promise<void> {
    let room: Room;
    try {
      room = await this.room(ws.data.code);
    } catch {
      const ended = (await this.deps.service.find(ws.data.code))?.endedAt != null;
      return ended
        ? this.refuse(ws, "ENDED", "This live talk has ended.", LIVE_CLOSE.ENDED)
        : this.refuse(ws, "NOT_FOUND", "No live talk has this code.", LIVE_CLOSE.NOT_FOUND);
    }
    // Hello only once this instance listens on the talk's bus channel: what another instance
    // publishes after a client's hello (a rotation, the end) must reach this instance.
    await room.bus?.catch(() => {});
    if (ws.readyState !== 1) return;
    // The talk ended (and was unloaded) meanwhile: join again, which answers ENDED.
    if (this.rooms.get(room.code) !== room) return this.join(ws, role, secret);
    if (role === "presenter" || role === "control") {
      const hash = role === "presenter" ? room.row.presenterHash : room.row.controlHash;
      if (!secret || !tokenMatches(secret, hash)) {
        this.deps.logger.info("live_auth_failed", { code: room.code, role, address: ws.data.address });
        this.deps.onAuthFailure(ws.data.address);
        return this.refuse(ws, "AUTH_FAILED", role === "presenter" ? "The presenter secret does not match this live talk." : "The remote link is not (or no longer) valid; ask the presenter for the current one.", LIVE_CLOSE.AUTH_FAILED);
      }
    }
    if (role === "viewer" && room.viewers.size >= this.deps.maxViewers) {
      return this.refuse(ws, "FULL", "This live talk has as many viewers as the server admits; try again later.", LIVE_CLOSE.FULL);
    }
    const perAddress = Math.min(this.deps.maxViewersPerAddress, this.deps.maxViewers);
    if (role === "viewer" && (room.viewersByAddress.get(ws.data.addressKey) ?? 0) >= perAddress) {
      this.deps.logger.info("live_refused", { code: room.code, role, reason: "FULL", address: ws.data.address, perAddress });
      return this.refuse(ws, "FULL", `This network address already holds ${perAddress} of this talk's seats, as many as one address may (--max-viewers-per-address); try again later or from another network.`, LIVE_CLOSE.FULL);
    }
    if (ws.data.joinTimer) clearTimeout(ws.data.joinTimer);
    ws.data.joinTimer = null;
    ws.data.role = role;
    ws.data.bucket = new TokenBucket(BUDGET[role].rate, BUDGET[role].burst);
    if (role === "presenter") {
      const previous = room.presenter;
      room.presenter = ws;
      if (previous && previous !== ws) this.refuse(previous, "REPLACED", "Another presenter window took over this live talk.", LIVE_CLOSE.REPLACED);
      if (room.graceTimer) clearTimeout(room.graceTimer);
      room.graceTimer = null;
      if (room.pausedUntil !== null) {
        room.pausedUntil = null;
        this.broadcast(room, { v: 1, type: "resumed" });
      }
      this.toBus(room, { kind: "presence" });
      room.presenceTimer ??= setInterval(() => {
        if (room.presenter) this.toBus(room, { kind: "presence" });
      }, PRESENCE_MS);
      // The row says the presenter is here, so no instance's sweep ends the talk as gone.
      this.presenterSeen(room);
      room.seenTimer ??= setInterval(() => {
        if (room.presenter) this.presenterSeen(room);
      }, Math.min(SEEN_MS, this.deps.graceMs / 3));
    } else {
      ws.data.generation = room.row.controlGeneration;
      (role === "control" ? room.controls : room.viewers).add(ws);
      if (role === "viewer") room.viewersByAddress.set(ws.data.addressKey, (room.viewersByAddress.get(ws.data.addressKey) ?? 0) + 1);
      ws.subscribe(topicOf(room.code));
    }
    this.send(ws, {
      v: 1,
      type: "hello",
      role,
      session: {
        code: room.code,
        sha256: room.row.sha256,
        bytes: room.row.bytes,
        totalSlides: room.row.totalSlides,
        filename: room.row.filename,
        allowDownload: room.row.allowDownload,
        expiresAt: isoSeconds(room.row.expiresAt),
      },
      seq: room.snapshot.seq,
      state: room.snapshot.state,
      paused: !this.presenterConnected(room),
      counts: this.counts(room.code),
      serverTime: this.deps.clock(),
    });
    this.scheduleCounts(room);
  }

  private left(ws: Socket): void {
    if (ws.data.joinTimer) clearTimeout(ws.data.joinTimer);
    const room = this.rooms.get(ws.data.code);
    if (!room || ws.data.role === null) return;
    if (room.viewers.delete(ws)) {
      const seats = (room.viewersByAddress.get(ws.data.addressKey) ?? 1) - 1;
      if (seats > 0) room.viewersByAddress.set(ws.data.addressKey, seats);
      else room.viewersByAddress.delete(ws.data.addressKey);
    }
    room.controls.delete(ws);
    if (room.presenter === ws) {
      room.presenter = null;
      if (room.presenceTimer) clearInterval(room.presenceTimer);
      room.presenceTimer = null;
      if (room.seenTimer) clearInterval(room.seenTimer);
      room.seenTimer = null;
      // The grace period (here and in the sweep) counts from this leave.
      this.presenterSeen(room);
      this.startGrace(room);
      if (room.pausedUntil !== null) this.broadcast(room, { v: 1, type: "paused", until: isoSeconds(room.pausedUntil) });
    }
    this.scheduleCounts(room);
    this.maybeUnload(room);
  }

  private startGrace(room: Room): void {
    if (room.graceTimer || room.presenter) return;
    room.pausedUntil = this.deps.clock() + this.deps.graceMs;
    room.graceTimer = setTimeout(() => {
      room.graceTimer = null;
      // The presenter is connected to another instance: this one's viewers are not waiting.
      if (!room.presenter && room.remotePresenterUntil > this.deps.clock()) return;
      if (!room.presenter) void this.deps.service.end(room.code, "presenter-gone").catch((error) => this.deps.logger.error("live_end_failed", { code: room.code, ...errorFields(error) }));
    }, this.deps.graceMs);
  }

  /** A room nobody is connected to stays loaded only while its grace timer runs. */
  private maybeUnload(room: Room): void {
    if (room.presenter || room.viewers.size > 0 || room.controls.size > 0 || room.graceTimer) return;
    this.unload(room);
  }

  private unload(room: Room): void {
    if (room.countsTimer) clearTimeout(room.countsTimer);
    if (room.presenceTimer) clearInterval(room.presenceTimer);
    if (room.seenTimer) clearInterval(room.seenTimer);
    if (room.graceTimer) clearTimeout(room.graceTimer);
    if (room.saveTimer) {
      clearTimeout(room.saveTimer);
      this.save(room);
    }
    void room.bus?.then((s) => s.close());
    this.rooms.delete(room.code);
  }

  /** To every viewer and remote (here and, unless `bus: false`, on other instances) and to the presenter. */
  private broadcast(room: Room, message: LiveServerMessageT, options: { presenter?: boolean; bus?: boolean } = {}): void {
    const data = encode(message);
    this.publishLocal(topicOf(room.code), data);
    if (options.presenter !== false) room.presenter?.send(data);
    if (options.bus === false) return;
    // A message too large for the bus makes the other instances reload the saved state
    // instead (the state is saved before it is relayed).
    this.toBus(room, { kind: "fanout", data: Buffer.byteLength(data) + 100 <= MAX_LIVE_MESSAGE_BYTES ? data : null });
  }

  private toBus(room: Room, envelope: EnvelopeBody): void {
    this.publishBus(room.code, envelope);
  }

  /** On the talk's channel, whether or not the talk is loaded here (other instances may hold its sockets). */
  private publishBus(code: string, envelope: EnvelopeBody): void {
    void this.deps.bus.publish(code, JSON.stringify({ from: this.instance, ...envelope })).catch((error) => this.deps.logger.error("live_bus_failed", { code, ...errorFields(error) }));
  }

  /** A presenter is connected here, or was heard of on another instance lately. */
  private presenterConnected(room: Room): boolean {
    return room.presenter !== null || room.remotePresenterUntil > this.deps.clock();
  }

  /** A presenter on another instance is alive: this instance's viewers are not paused. */
  private remotePresence(room: Room): void {
    room.remotePresenterUntil = this.deps.clock() + PRESENCE_TTL_MS;
    if (room.graceTimer) clearTimeout(room.graceTimer);
    room.graceTimer = null;
    if (room.pausedUntil !== null && !room.presenter) {
      room.pausedUntil = null;
      this.publishLocal(topicOf(room.code), encode({ v: 1, type: "resumed" }));
    }
  }

  private fromBus(room: Room, text: string): void {
    // Our own messages come back on the bus too: skip them without parsing (a state can be large).
    if (text.startsWith(`{"from":"${this.instance}"`)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === this.instance || this.rooms.get(room.code) !== room) return;
    switch (envelope.kind) {
      case "query":
        if (room.presenter) this.toBus(room, { kind: "presence" });
        return;
      case "presence":
        return this.remotePresence(room);
      case "ended":
        return this.ended(room.code, envelope.reason, { bus: false });
      case "rotated":
        return void this.rotated(room.code, envelope.generation, { bus: false });
      case "command":
        room.presenter?.send(envelope.data);
        return;
      case "fanout":
        return this.fanoutFromBus(room, envelope.data);
    }
  }

  /** A message another instance sent to its sockets: to this instance's sockets too, and into its snapshot. */
  private fanoutFromBus(room: Room, data: string | null): void {
    if (data === null) {
      void this.deps.service.find(room.code).then((row) => {
        if (!row?.stateJson) return;
        const snapshot = JSON.parse(row.stateJson) as LiveSnapshot;
        if (snapshot.state && snapshot.seq > room.snapshot.seq) {
          room.snapshot = snapshot;
          this.remotePresence(room);
          this.publishLocal(topicOf(room.code), encode({ v: 1, type: "state", seq: snapshot.seq, state: snapshot.state }));
        }
      });
      return;
    }
    const message = JSON.parse(data) as LiveServerMessageT;
    if (message.type === "state" || message.type === "pointer" || message.type === "ink") {
      // Keep this instance's snapshot current, so its late joiners get the state at once.
      const { seq, ...body } = message;
      room.snapshot = { ...mergeLive(room.snapshot, body as Parameters<typeof mergeLive>[1]), seq };
      this.remotePresence(room);
    } else if (message.type === "paused") {
      room.remotePresenterUntil = 0;
      if (!room.presenter) this.startGrace(room);
    } else if (message.type === "resumed") {
      this.remotePresence(room);
    } else if (message.type === "settings") {
      room.row = { ...room.row, allowDownload: message.allowDownload };
    } else if (message.type === "counts") {
      return;
    }
    this.publishLocal(topicOf(room.code), data);
  }

  private relay(ws: Socket, room: Room, message: Extract<LiveClientMessageT, { type: "state" | "pointer" | "ink" }>): void {
    const next = mergeLive(room.snapshot, message);
    // The snapshot is kept, saved and sent to every late joiner: bounded in strokes, numbers
    // and bytes (per stroke, per slide, in all) before anything is taken or relayed.
    const over = liveStateOverBounds(next.state);
    if (over !== null) return this.error(ws, "TOO_LARGE", over);
    room.snapshot = next;
    const seq = room.snapshot.seq;
    if (message.type !== "state") {
      // Pointer moves and strokes are frequent: saved with the next state, or within a
      // second (a restart loses at most that; the presenter sends its whole state again).
      room.saveTimer ??= setTimeout(() => {
        room.saveTimer = null;
        this.save(room);
      }, POINTER_SAVE_MS);
      this.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
      return;
    }
    this.save(room);
    this.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
  }

  private presenterSeen(room: Room): void {
    void this.deps.service.presenterSeen(room.code).catch((error) => this.deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) }));
  }

  private save(room: Room): void {
    void this.deps.service.repo.saveState(room.code, JSON.stringify(room.snapshot)).catch((error) => this.deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) }));
  }

  private async settings(room: Room, allowDownload: boolean): Promise<void> {
    room.row = { ...room.row, allowDownload };
    await this.deps.service.repo.setAllowDownload(room.code, allowDownload);
    this.broadcast(room, { v: 1, type: "settings", allowDownload });
  }

  private scheduleCounts(room: Room): void {
    room.countsTimer ??= setTimeout(() => {
      room.countsTimer = null;
      // Counted per instance: each instance tells its own sockets about its own sockets.
      if (this.rooms.get(room.code) === room) this.broadcast(room, { v: 1, type: "counts", counts: this.counts(room.code) }, { bus: false });
    }, COUNTS_INTERVAL_MS);
  }

  /**
   * The talk ended: told on the bus (unless `bus: false`) even when it is not loaded here,
   * since another instance may hold its sockets; this instance's sockets get `ended` and 4410.
   */
  private ended(code: string, reason: LiveEndReason, options: { bus?: boolean } = {}): void {
    if (options.bus !== false) this.publishBus(code, { kind: "ended", reason });
    const room = this.rooms.get(code);
    if (!room) return;
    if (room.saveTimer) clearTimeout(room.saveTimer);
    room.saveTimer = null;
    const data = encode({ v: 1, type: "ended", reason });
    for (const ws of [room.presenter, ...room.controls, ...room.viewers]) {
      if (!ws) continue;
      ws.send(data);
      ws.close(LIVE_CLOSE.ENDED, "ENDED");
    }
    room.presenter = null;
    room.controls.clear();
    room.viewers.clear();
    room.viewersByAddress.clear();
    this.unload(room);
  }

  /** The control secret was rotated: told on the bus even when the talk is not loaded here (another instance may hold its remotes); this instance's old remotes are closed. */
  private async rotated(code: string, generation: number, options: { bus?: boolean } = {}): Promise<void> {
    if (options.bus !== false) this.publishBus(code, { kind: "rotated", generation });
    const room = this.rooms.get(code);
    if (!room) return;
    // Until the new hash is read, no control secret is accepted here (the old one must not slip in).
    room.row = { ...room.row, controlHash: "", controlGeneration: generation };
    const row = await this.deps.service.find(code);
    if (row) room.row = row;
    room.row = { ...room.row, controlGeneration: generation };
    for (const ws of [...room.controls]) {
      if (ws.data.generation < generation) {
        room.controls.delete(ws);
        this.refuse(ws, "CONTROL_ROTATED", "The presenter renewed the remote link; open the new one.", LIVE_CLOSE.CONTROL_ROTATED);
      }
    }
    this.scheduleCounts(room);
  }

  /** Close every socket (server shutdown): clients reconnect to the next server by themselves. */
  close(): void {
    for (const room of [...this.rooms.values()]) {
      for (const ws of [room.presenter, ...room.controls, ...room.viewers]) ws?.close(1001, "server shutting down");
      this.unload(room);
    }
  }
}
