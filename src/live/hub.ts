/**
 * @module live/hub
 * The sockets of live sessions on this instance, tied together: which talk each socket joined
 * in which role, the rooms (./room.ts) loaded from their rows and saved back, and the fan-out
 * of the presenter's messages to viewers and remotes on Bun's native pub/sub (one topic per
 * talk). What a socket may send is the socket policy's (./socket-policy.ts); the presenter's
 * grace period is ./presenter-grace.ts; other instances serving the same talk (PostgreSQL)
 * are reached through the bus bridge (./bus-bridge.ts). The service tells the hub of ends and
 * rotations through the `LiveEvents` port (./events.ts); every timer runs on the injected
 * scheduler (./scheduler.ts).
 */
import type { WebSocketHandler } from "bun";
import { randomBytes } from "../tools/random.ts";
import { LIVE_CLOSE, type LiveClientMessageT, type LiveCountsT, type LiveRoleT, type LiveServerMessageT, liveStateOverBounds, mergeLive } from "../shared/live-protocol.ts";
import type { LiveBus } from "../core/live.ts";
import type { LiveEndReason } from "../core/live-sessions.ts";
import { isoSeconds } from "../tools/time.ts";
import { tokenMatches } from "../handoff/secrets.ts";
import type { Logger } from "../log.ts";
import { errorFields } from "../log.ts";
import { LiveBusBridge } from "./bus-bridge.ts";
import type { LiveEventRelay } from "./events.ts";
import { PresenterGrace } from "./presenter-grace.ts";
import { AudienceRelay, isAudienceMessage, newAudience } from "./audience-relay.ts";
import { mayTake } from "./fair-share.ts";
import { addViewer, cancelTimers, encode, newRoom, removeViewer, type Room, seatsOf, socketsOf, topicOf, viewersTopicOf } from "./room.ts";
import { type Scheduler, systemScheduler } from "./scheduler.ts";
import type { LiveJoinGuard } from "./join-guard.ts";
import type { LiveService } from "./service.ts";
import { type LiveSocket, type LiveSocketData, SOCKET_LIMITS, SocketPolicy } from "./socket-policy.ts";

export type { LiveSocketData } from "./socket-policy.ts";

/** Counts change with every join and leave; they are sent at most this often. */
const COUNTS_INTERVAL_MS = 250;
/** Pointer moves and strokes are kept in memory and written to the row at most this often. */
const POINTER_SAVE_MS = 1_000;

export interface LiveHubDeps {
  service: LiveService;
  /** The service's events: the hub listens to them. */
  events: LiveEventRelay;
  bus: LiveBus;
  logger: Logger;
  clock: () => number;
  /** Timers of joins, grace, counts, saves and heartbeats (the system's unless a test drives them). */
  scheduler?: Scheduler;
  maxViewers: number;
  /** Viewer seats of one talk one address (IPv6 /64) may hold. */
  maxViewersPerAddress: number;
  /** Live sockets this instance holds at most (below its descriptor limit). */
  maxSockets: number;
  graceMs: number;
  /** Wrong presenter and remote secrets, counted per address and talk (./join-guard.ts): past the limit, that address's secret joins of the talk are refused. */
  secrets: Pick<LiveJoinGuard, "secretsRetryAfter" | "failSecret">;
}

export class LiveHub {
  private readonly rooms = new Map<string, Room>();
  private readonly loading = new Map<string, Promise<Room>>();
  private publishLocal: (topic: string, data: string) => void = () => {};
  private readonly scheduler: Scheduler;
  private readonly policy: SocketPolicy;
  private readonly grace: PresenterGrace;
  private readonly bridge: LiveBusBridge;
  private readonly audience: AudienceRelay;
  /** Stand-in viewer ids of sockets that sent none: such a socket votes once as itself. */
  private anonymous = 0;
  /** Makes those stand-ins unique across instances: `socket:1` on two instances is two viewers. */
  private readonly anonymousPrefix = `socket:${randomBytes(6).toString("hex")}:`;

  constructor(private readonly deps: LiveHubDeps) {
    this.scheduler = deps.scheduler ?? systemScheduler;
    this.policy = new SocketPolicy({ logger: deps.logger, scheduler: this.scheduler, maxSockets: deps.maxSockets });
    this.audience = new AudienceRelay({ policy: this.policy, scheduler: this.scheduler, perAddress: () => Math.min(deps.maxViewersPerAddress, deps.maxViewers),
      save: (room, json) => deps.service.repo.saveAudience(room.code, json).catch((error) => deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) })),
      read: async (room) => (await deps.service.find(room.code))?.audienceJson ?? null,
      publish: (room, event) => this.bridge.publish(room.code, { kind: "audience", event }),
      publishViewers: (room, data) => this.publishLocal(viewersTopicOf(room.code), data),
    });
    this.grace = new PresenterGrace({
      service: deps.service,
      logger: deps.logger,
      clock: deps.clock,
      scheduler: this.scheduler,
      graceMs: deps.graceMs,
      broadcast: (room, message) => this.broadcast(room, message),
      publishLocal: (room, message) => this.publishLocal(topicOf(room.code), encode(message)),
      announce: (room) => this.bridge.publish(room.code, { kind: "presence" }),
    });
    this.bridge = new LiveBusBridge({
      bus: deps.bus,
      logger: deps.logger,
      service: deps.service,
      grace: this.grace,
      publishLocal: (room, data) => this.publishLocal(topicOf(room.code), data),
      loaded: (room) => this.rooms.get(room.code) === room,
      ended: (code, reason) => this.ended(code, reason, { bus: false }),
      rotated: (code, generation) => void this.rotated(code, generation, { bus: false }),
      audience: (room, event) => this.audience.received(room, event),
      saveCopy: async (room) => {
        await Promise.all([this.audience.flush(room), room.presenter ? this.save(room) : undefined]);
      },
      audienceSaved: (room) => void this.audience.catchUp(room).catch((error) => deps.logger.error("live_message_failed", { code: room.code, ...errorFields(error) })),
    });
    deps.events.listen({
      ended: (code, reason, already) => this.ended(code, reason, { bus: !already }),
      rotated: (code, generation) => void this.rotated(code, generation),
      presenterHere: (code) => !!this.rooms.get(code)?.presenter,
    });
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
    return { viewers: room?.viewers.size ?? 0, controls: room?.controls.size ?? 0, presenter: !!room && this.grace.connected(room) };
  }

  isFull(code: string): boolean {
    return this.viewerCount(code) >= this.deps.maxViewers;
  }

  /** See SocketPolicy.reserve: one of the instance's socket places, before an upgrade. */
  reserveSocket(address: string): "ok" | "full" | "address" {
    return this.policy.reserve(address);
  }

  releaseSocket(address: string): void {
    this.policy.release(address);
  }

  /** Live sockets this instance holds now. */
  get socketCount(): number {
    return this.policy.count;
  }

  /** Data for a socket about to be upgraded. */
  socketData(code: string, address: string): LiveSocketData {
    return this.policy.dataFor(code, address);
  }

  readonly websocket: WebSocketHandler<LiveSocketData> = {
    ...SOCKET_LIMITS,
    open: (ws) => this.policy.opened(ws),
    message: (ws, raw) => {
      void this.onMessage(ws, raw).catch((error) => {
        this.deps.logger.error("live_message_failed", { code: ws.data.code, role: ws.data.role, ...errorFields(error) });
        this.policy.send(ws, { v: 1, type: "error", code: "INTERNAL", message: "The server could not handle that message; reconnect." });
      });
    },
    close: (ws) => {
      this.policy.release(ws.data.address);
      this.left(ws);
    },
  };

  private async onMessage(ws: LiveSocket, raw: string | Buffer): Promise<void> {
    const message = this.policy.admit(ws, raw);
    if (message === null) return;
    if (message.type === "ping") return this.policy.send(ws, { v: 1, type: "pong", ...(message.t !== undefined ? { t: message.t } : {}), serverTime: this.deps.clock() });
    if (ws.data.role === null) {
      if (message.type !== "join") return this.policy.strike(ws, "NOT_ALLOWED", "Send a join message first.", message.type);
      ws.data.viewerId = message.role === "viewer" ? (message.viewerId ?? `${this.anonymousPrefix}${++this.anonymous}`) : null;
      return this.join(ws, message.role, message.secret);
    }
    const room = this.rooms.get(ws.data.code);
    if (!room) return;
    if (isAudienceMessage(message)) return this.audience.handle(ws, room, message);
    const role = ws.data.role;
    if (role === "presenter" && room.presenter === ws) {
      if (message.type === "state" || message.type === "pointer" || message.type === "ink") return this.relay(ws, room, message);
      if (message.type === "settings") return this.settings(room, message.allowDownload);
    }
    if (role === "control" && message.type === "command") {
      if (message.action === "goto" && message.page === undefined) return this.policy.strike(ws, "BAD_MESSAGE", "A goto command needs a page.", message.type);
      if (ws.data.generation !== room.row.controlGeneration) return this.policy.refuse(ws, "CONTROL_ROTATED", "The presenter renewed the remote link; open the new one.", LIVE_CLOSE.CONTROL_ROTATED);
      const data = encode({ ...message, v: 1 });
      // The presenter may be connected to another instance.
      if (room.presenter) room.presenter.send(data);
      else this.bridge.publish(room.code, { kind: "command", data });
      return;
    }
    this.policy.strike(ws, "NOT_ALLOWED", role === "viewer" ? "Viewers follow the talk; they cannot change it." : `A ${role} socket may not send "${message.type}".`, message.type);
  }

  private async room(code: string): Promise<Room> {
    const existing = this.rooms.get(code);
    if (existing) return existing;
    let pending = this.loading.get(code);
    if (!pending) {
      pending = (async () => {
        const row = await this.deps.service.open(code);
        const room = newRoom(code, row, newAudience(this.deps.clock, row.audienceJson));
        room.bus = this.bridge.subscribe(room);
        this.rooms.set(code, room);
        // No presenter yet (a restart, or a presenter still connecting): the grace period runs.
        this.grace.start(room);
        return room;
      })().finally(() => this.loading.delete(code));
      this.loading.set(code, pending);
    }
    return pending;
  }

  private async join(ws: LiveSocket, role: LiveRoleT, secret: string | undefined): Promise<void> {
    let room: Room;
    try {
      room = await this.room(ws.data.code);
    } catch {
      const ended = (await this.deps.service.find(ws.data.code))?.endedAt != null;
      return ended
        ? this.policy.refuse(ws, "ENDED", "This live talk has ended.", LIVE_CLOSE.ENDED)
        : this.policy.refuse(ws, "NOT_FOUND", "No live talk has this code.", LIVE_CLOSE.NOT_FOUND);
    }
    // Hello only once this instance listens on the talk's bus channel: what another instance
    // publishes after a client's hello (a rotation, the end) must reach this instance.
    await room.bus?.catch(() => {});
    if (ws.readyState !== 1) return;
    // The talk ended (and was unloaded) meanwhile: join again, which answers ENDED.
    if (this.rooms.get(room.code) !== room) return this.join(ws, role, secret);
    if (role === "presenter" || role === "control") {
      const retryAfter = this.deps.secrets.secretsRetryAfter(ws.data.address, room.code);
      if (retryAfter !== null) {
        this.deps.logger.info("live_refused", { code: room.code, role, reason: "RATE_LIMITED", address: ws.data.address });
        return this.policy.refuse(ws, "RATE_LIMITED", `Too many wrong secrets for this talk from this network address; retry in ${retryAfter} s.`, LIVE_CLOSE.RATE_LIMITED);
      }
      const hash = role === "presenter" ? room.row.presenterHash : room.row.controlHash;
      if (!secret || !tokenMatches(secret, hash)) {
        this.deps.logger.info("live_auth_failed", { code: room.code, role, address: ws.data.address });
        void this.deps.secrets.failSecret(ws.data.address, room.code).catch((error) => this.deps.logger.error("live_message_failed", { code: room.code, ...errorFields(error) }));
        return this.policy.refuse(ws, "AUTH_FAILED", role === "presenter" ? "The presenter secret does not match this live talk." : "The remote link is not (or no longer) valid; ask the presenter for the current one.", LIVE_CLOSE.AUTH_FAILED);
      }
    }
    if (role === "viewer") {
      const refusal = this.seatRefusal(room, ws);
      if (refusal !== null) return this.policy.refuse(ws, "FULL", refusal, LIVE_CLOSE.FULL);
    }
    this.policy.joined(ws, role);
    if (role === "presenter") {
      const previous = room.presenter;
      room.presenter = ws;
      if (previous && previous !== ws) this.policy.refuse(previous, "REPLACED", "Another presenter window took over this live talk.", LIVE_CLOSE.REPLACED);
      this.grace.arrived(room);
    } else {
      ws.data.generation = room.row.controlGeneration;
      if (role === "control") room.controls.add(ws);
      else {
        addViewer(room, ws);
        ws.subscribe(viewersTopicOf(room.code));
      }
      ws.subscribe(topicOf(room.code));
    }
    this.policy.send(ws, {
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
      paused: !this.grace.connected(room),
      counts: this.counts(room.code),
      serverTime: this.deps.clock(),
      audience: this.audience.hello(room, ws),
    });
    this.scheduleCounts(room);
  }

  /**
   * Why the address of `ws` gets no viewer seat of `room` now, or null when it gets one: the
   * talk is full, the address holds --max-viewers-per-address, or it holds its share of the
   * seats as the talk fills (./fair-share.ts) — refusals of an address are logged.
   */
  private seatRefusal(room: Room, ws: LiveSocket): string | null {
    const held = seatsOf(room, ws);
    const verdict = mayTake({ size: this.deps.maxViewers, taken: room.viewers.size }, held);
    if (verdict === "full") return "This live talk has as many viewers as the server admits; try again later.";
    const cap = Math.min(this.deps.maxViewersPerAddress, this.deps.maxViewers);
    if (held < cap && verdict === "ok") return null;
    this.deps.logger.info("live_refused", { code: room.code, role: "viewer", reason: "FULL", address: ws.data.address, held, limit: held >= cap ? "per-address" : "share" });
    return held >= cap
      ? `This network address already holds ${cap} of this talk's seats, as many as one address may (--max-viewers-per-address); try again later or from another network.`
      : `This network address already holds ${held} of this talk's seats, its share while the talk fills (the rest stay for other networks); try again later or from another network.`;
  }

  private left(ws: LiveSocket): void {
    this.policy.stopJoinTimer(ws);
    const room = this.rooms.get(ws.data.code);
    if (!room || ws.data.role === null) return;
    removeViewer(room, ws);
    room.controls.delete(ws);
    if (room.presenter === ws) {
      room.presenter = null;
      this.grace.departed(room);
    }
    this.scheduleCounts(room);
    this.maybeUnload(room);
  }

  /** A room nobody is connected to stays loaded only while its grace timer runs. */
  private maybeUnload(room: Room): void {
    if (room.presenter || room.viewers.size > 0 || room.controls.size > 0 || room.graceTimer) return;
    this.unload(room);
  }

  private unload(room: Room): void {
    cancelTimers(room);
    if (room.audienceSaveTimer) void this.audience.flush(room);
    if (room.saveTimer) {
      room.saveTimer.cancel();
      void this.save(room);
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
    this.bridge.fanout(room, data);
  }

  private relay(ws: LiveSocket, room: Room, message: Extract<LiveClientMessageT, { type: "state" | "pointer" | "ink" }>): void {
    const next = mergeLive(room.snapshot, message);
    // The snapshot is kept, saved and sent to every late joiner: bounded in strokes, numbers
    // and bytes (per stroke, per slide, in all) before anything is taken or relayed.
    const over = liveStateOverBounds(next.state);
    if (over !== null) return this.policy.error(ws, "TOO_LARGE", over);
    room.snapshot = next;
    const seq = room.snapshot.seq;
    if (message.type !== "state") {
      // Pointer moves and strokes are frequent: saved with the next state, or within a
      // second (a restart loses at most that; the presenter sends its whole state again).
      room.saveTimer ??= this.scheduler.after(POINTER_SAVE_MS, () => {
        room.saveTimer = null;
        void this.save(room);
      });
      this.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
      return;
    }
    void this.save(room);
    this.broadcast(room, { ...message, v: 1, seq } as LiveServerMessageT, { presenter: false });
  }

  /** Write the snapshot to the row; a failure is logged (the next state writes it again). */
  private save(room: Room): Promise<void> {
    return this.deps.service.repo.saveState(room.code, JSON.stringify(room.snapshot)).catch((error) => this.deps.logger.error("live_save_failed", { code: room.code, ...errorFields(error) }));
  }

  private async settings(room: Room, allowDownload: boolean): Promise<void> {
    room.row = { ...room.row, allowDownload };
    await this.deps.service.repo.setAllowDownload(room.code, allowDownload);
    this.broadcast(room, { v: 1, type: "settings", allowDownload });
  }

  private scheduleCounts(room: Room): void {
    room.countsTimer ??= this.scheduler.after(COUNTS_INTERVAL_MS, () => {
      room.countsTimer = null;
      // Counted per instance: each instance tells its own sockets about its own sockets.
      if (this.rooms.get(room.code) === room) this.broadcast(room, { v: 1, type: "counts", counts: this.counts(room.code) }, { bus: false });
    });
  }

  /**
   * The talk ended: told on the bus (unless `bus: false`) even when it is not loaded here,
   * since another instance may hold its sockets; this instance's sockets get `ended` and 4410.
   */
  private ended(code: string, reason: LiveEndReason, options: { bus?: boolean } = {}): void {
    if (options.bus !== false) this.bridge.publish(code, { kind: "ended", reason });
    const room = this.rooms.get(code);
    if (!room) return;
    room.saveTimer?.cancel();
    room.saveTimer = null;
    const data = encode({ v: 1, type: "ended", reason });
    for (const ws of socketsOf(room)) {
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
    if (options.bus !== false) this.bridge.publish(code, { kind: "rotated", generation });
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
        this.policy.refuse(ws, "CONTROL_ROTATED", "The presenter renewed the remote link; open the new one.", LIVE_CLOSE.CONTROL_ROTATED);
      }
    }
    this.scheduleCounts(room);
  }

  /** Close every socket (server shutdown): clients reconnect to the next server by themselves. */
  close(): void {
    for (const room of [...this.rooms.values()]) {
      for (const ws of socketsOf(room)) ws.close(1001, "server shutting down");
      this.unload(room);
    }
  }
}
