/**
 * A WebSocket client whose connection comes from a chosen loopback address (127.0.0.2, …:
 * Linux routes all of 127/8 to the loopback interface), so one test process is several
 * clients as the server counts them — by their real peer address, with no proxy header to
 * trust. Bun's WebSocket cannot pick its local address; this speaks RFC 6455 over node:net
 * with the members the live tests use (`onopen`, `onmessage`, `onclose`, `onerror`, `send`,
 * `close`, `readyState`). An upgrade the server refuses fails `onerror` and keeps its answer
 * (status and problem body) in `refusal`.
 */
import { connect, type Socket } from "node:net";
import { parseResponse, type RawResponse } from "./raw-http.ts";

const OPCODE = { continuation: 0, text: 1, close: 8, ping: 9, pong: 10 } as const;

export class LoopbackWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;

  readyState: number = LoopbackWebSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  /** The server's answer when it refused the upgrade (no socket). */
  refusal: RawResponse | null = null;

  private readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closeEvent: { code: number; reason: string } | null = null;

  /** Open `url` (ws://127.0.0.1:PORT/path) from `localAddress`. */
  constructor(url: string, localAddress: string, headers: Record<string, string> = {}) {
    const { hostname, port, pathname, search } = new URL(url);
    this.socket = connect({ host: hostname, port: Number(port), localAddress });
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
    this.socket.on("connect", () => {
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
      this.socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    });
    this.socket.on("data", (chunk: Buffer) => this.received(chunk));
    this.socket.on("close", () => this.ended());
    this.socket.on("error", () => {});
  }

  send(text: string): void {
    if (this.readyState !== LoopbackWebSocket.OPEN) return;
    this.socket.write(frame(OPCODE.text, Buffer.from(text)));
  }

  close(code = 1000): void {
    if (this.readyState !== LoopbackWebSocket.OPEN) return;
    this.readyState = LoopbackWebSocket.CLOSING;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.socket.write(frame(OPCODE.close, payload));
  }

  private received(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (this.readyState === LoopbackWebSocket.CONNECTING) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = parseResponse(this.buffer.subarray(0, end + 4).toString("latin1"));
      if (head.status !== 101) {
        // Read the problem document to its end (Content-Length), then fail.
        const response = parseResponse(this.buffer.toString("utf8"));
        if (response.headers["content-length"] !== undefined && Buffer.byteLength(response.body) < Number(response.headers["content-length"])) return;
        this.refusal = response;
        this.readyState = LoopbackWebSocket.CLOSED;
        this.socket.destroy();
        this.onerror?.({ message: `upgrade refused: ${response.status}` });
        return;
      }
      this.buffer = this.buffer.subarray(end + 4);
      this.readyState = LoopbackWebSocket.OPEN;
      this.onopen?.();
    }
    this.frames();
  }

  /** Take every whole frame from the buffer (server frames are never masked). */
  private frames(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const fin = (this.buffer[0]! & 0x80) !== 0;
      const opcode = this.buffer[0]! & 0x0f;
      let length = this.buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const payload = this.buffer.subarray(offset, offset + length);
      this.buffer = this.buffer.subarray(offset + length);
      if (opcode === OPCODE.ping) this.socket.write(frame(OPCODE.pong, payload));
      else if (opcode === OPCODE.close) {
        this.closeEvent = { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString("utf8") };
        if (this.readyState === LoopbackWebSocket.OPEN) this.socket.write(frame(OPCODE.close, payload.subarray(0, 2)));
        this.readyState = LoopbackWebSocket.CLOSING;
        this.socket.end();
      } else if (opcode === OPCODE.text || opcode === OPCODE.continuation) {
        this.fragments.push(Buffer.from(payload));
        if (fin) this.onmessage?.({ data: Buffer.concat(this.fragments.splice(0)).toString("utf8") });
      }
    }
  }

  private ended(): void {
    if (this.refusal !== null) return;
    const wasConnecting = this.readyState === LoopbackWebSocket.CONNECTING;
    this.readyState = LoopbackWebSocket.CLOSED;
    if (wasConnecting) return void this.onerror?.({ message: "connection closed before the upgrade" });
    this.onclose?.(this.closeEvent ?? { code: 1006, reason: "" });
  }
}

/** A client frame: masked, as RFC 6455 requires of clients (the live tests send messages under 64 KiB). */
function frame(opcode: number, payload: Buffer): Buffer {
  if (payload.length > 0xffff) throw new RangeError("LoopbackWebSocket sends frames under 64 KiB");
  const mask = Buffer.from(crypto.getRandomValues(new Uint8Array(4)));
  const head = payload.length < 126 ? Buffer.from([0x80 | opcode, 0x80 | payload.length]) : Buffer.from([0x80 | opcode, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const body = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) body[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([head, mask, body]);
}
