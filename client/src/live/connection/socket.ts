/**
 * @module client/live/connection/socket
 * One live WebSocket that stays up: it joins with its role (the secret goes in the first
 * message, never in the URL), hands every server message to the page, and reconnects with
 * backoff (./backoff.ts) after any close — except the closes that mean "stop" (the session
 * ended, is unknown or full, the secret was refused or rotated, another presenter window
 * took over), which end it with that reason for the page to show.
 */
import { LIVE_CLOSE, LIVE_PROTOCOL_VERSION, type LiveClientMessageT, type LiveRoleT, type LiveServerMessageT } from "../../../../src/shared/live-protocol.ts";
import { backoffDelay } from "./backoff.ts";

/** Keep-alive: some proxies drop a WebSocket that says nothing for a minute. */
const PING_MS = 25_000;

/** Close codes after which trying again cannot help. */
const FINAL = new Set<number>([LIVE_CLOSE.AUTH_FAILED, LIVE_CLOSE.NOT_FOUND, LIVE_CLOSE.REPLACED, LIVE_CLOSE.ENDED, LIVE_CLOSE.FULL]);

export type SocketStatus = "connecting" | "open" | "waiting";

export type Stopped = { code: number; reason: string };

export type Outgoing = LiveClientMessageT extends infer M ? (M extends { v: 1 } ? Omit<M, "v"> : never) : never;

export interface LiveSocketOptions {
  code: string;
  role: LiveRoleT;
  /** Read at every (re)connection: a presenter's secret, a remote's control secret. */
  secret?: () => string | undefined;
  /** A viewer's random per-browser id (../viewer/viewer-id.ts), so a reload keeps its up-votes and votes. */
  viewerId?: string;
  onMessage(message: LiveServerMessageT): void;
  onStatus?(status: SocketStatus): void;
  /** The socket will not reconnect: the close code and its reason (a LiveErrorCode). */
  onStop?(stopped: Stopped): void;
  /** For tests. */
  url?: string;
}

export function liveSocketUrl(code: string, loc: { protocol: string; host: string } = location): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/api/live/${encodeURIComponent(code)}/ws`;
}

export class LiveSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private ping: ReturnType<typeof setInterval> | undefined;
  /** The last error the server sent before closing, which names the reason. */
  private lastError: string | null = null;

  constructor(private readonly options: LiveSocketOptions) {
    this.connect();
    // Back from sleep or a dead Wi-Fi: try at once rather than wait out the backoff.
    globalThis.addEventListener?.("online", () => this.now());
  }

  get open(): boolean {
    return this.ws?.readyState === 1; // WebSocket.OPEN
  }

  send(message: Outgoing): boolean {
    if (!this.open) return false;
    this.ws!.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, ...message }));
    return true;
  }

  /** Stop for good (the page is done with this session). */
  close(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    this.ws?.close(1000, "bye");
  }

  /** Reconnect now if waiting. */
  now(): void {
    if (this.stopped || this.ws) return;
    clearTimeout(this.retry);
    this.connect();
  }

  /**
   * A socket that closed before its `hello`: the upgrade itself may have been refused (an
   * ended or unknown code answers the upgrade with 410/404, which a browser reports only as
   * close 1006). Ask the info route which it is, so a dead talk is not retried forever.
   */
  private async refusedBecause(): Promise<Stopped | null> {
    try {
      const response = await fetch(`/api/live/${encodeURIComponent(this.options.code)}`, { cache: "no-store", credentials: "omit" });
      if (response.status === 410) return { code: LIVE_CLOSE.ENDED, reason: "ENDED" };
      if (response.status === 404) return { code: LIVE_CLOSE.NOT_FOUND, reason: "NOT_FOUND" };
    } catch {
      // The server is away: keep trying.
    }
    return null;
  }

  private connect(): void {
    this.options.onStatus?.("connecting");
    const ws = new WebSocket(this.options.url ?? liveSocketUrl(this.options.code));
    let greeted = false;
    this.ws = ws;
    ws.onopen = () => {
      const secret = this.options.secret?.();
      const viewerId = this.options.role === "viewer" ? this.options.viewerId : undefined;
      ws.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: "join", role: this.options.role, ...(secret ? { secret } : {}), ...(viewerId ? { viewerId } : {}) }));
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: "ping", t: Date.now() }), PING_MS);
    };
    ws.onmessage = (event) => {
      let message: LiveServerMessageT;
      try {
        message = JSON.parse(String(event.data)) as LiveServerMessageT;
      } catch {
        return;
      }
      if (message?.v !== LIVE_PROTOCOL_VERSION) return;
      if (message.type === "hello") {
        greeted = true;
        this.attempt = 0;
        this.options.onStatus?.("open");
      }
      if (message.type === "error") this.lastError = message.code;
      this.options.onMessage(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL.has(event.code)) {
        this.stopped = true;
        this.options.onStop?.({ code: event.code, reason: event.reason || this.lastError || "" });
        return;
      }
      this.lastError = null;
      this.options.onStatus?.("waiting");
      const retry = () => {
        if (!this.stopped) this.retry = setTimeout(() => this.connect(), backoffDelay(this.attempt++));
      };
      if (greeted) return retry();
      void this.refusedBecause().then((stopped) => {
        if (!stopped || this.stopped) return retry();
        this.stopped = true;
        this.options.onStop?.(stopped);
      });
    };
  }
}
