/**
 * A crowd of live viewers from one test process: hundreds of WebSockets, each from the loopback
 * address it is given (127.0.0.x: Linux routes all of 127/8 to the loopback interface, and the
 * server counts seats, questions and votes per address), each joined with its own viewer id.
 * Made for floods: a crowd socket speaks just enough of RFC 6455 to join and send (masked text
 * frames, a ping now and then so the server never finds it idle) and reads nothing but what it
 * must — its hello, and the codes of the errors it is sent — so that three hundred of them
 * taking every question and vote update the server fans out cost this process little (the
 * browser and the server are what is measured). Bun's WebSocket cannot choose its source
 * address, hence node:net.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/** A crowd socket says something this often, so the server's idle timeout (120 s) never closes it. */
const KEEPALIVE_MS = 30_000;
/** Longest wait for the upgrade and the hello. */
const JOIN_MS = 15_000;

export interface CrowdSocket {
  readonly address: string;
  readonly viewerId: string;
  /** Send one message (an object, sent as JSON). */
  send(message: object): void;
  /** The codes of the errors the server sent this socket, in order. */
  readonly refused: string[];
  close(): void;
}

/** One masked client frame (text, or a ping). */
function frame(payload: Buffer, opcode: 0x1 | 0x9): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const out = Buffer.alloc(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 65_536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  mask.copy(out, head);
  for (let i = 0; i < len; i++) out[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return out;
}

const HELLO = Buffer.from('"type":"hello"');
const ERROR = Buffer.from('"type":"error"');
const CODE = /"code":"([A-Z_]+)"/;

/** A viewer from `address` on talk `code` of the server at 127.0.0.1:`port`; resolves once its hello came. */
export function crowdSocket(port: number, code: string, address: string, viewerId: string): Promise<CrowdSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: "127.0.0.1", port, localAddress: address });
    const refused: string[] = [];
    let upgraded = false;
    let joined = false;
    let keepalive: ReturnType<typeof setInterval> | undefined;
    /** The end of the last chunk: a marker split across two chunks is still found. */
    let tail = Buffer.alloc(0);
    const timer = setTimeout(() => fail(new Error(`crowd socket from ${address}: no hello within ${JOIN_MS} ms`)), JOIN_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      clearInterval(keepalive);
      socket.destroy();
      reject(error);
    };
    const me: CrowdSocket = {
      address,
      viewerId,
      refused,
      send: (message) => void socket.write(frame(Buffer.from(JSON.stringify({ v: 1, ...message })), 0x1)),
      close: () => {
        clearInterval(keepalive);
        socket.destroy();
      },
    };
    socket.on("error", (error) => (joined ? undefined : fail(error)));
    socket.on("connect", () => {
      const key = randomBytes(16).toString("base64");
      socket.write(`GET /api/live/${encodeURIComponent(code)}/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      let data = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      if (!upgraded) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) {
          tail = data;
          return;
        }
        const status = data.subarray(0, data.indexOf("\r\n")).toString("latin1");
        if (!status.includes(" 101 ")) return fail(new Error(`crowd socket from ${address}: ${status}`));
        upgraded = true;
        data = data.subarray(end + 4);
        me.send({ type: "join", role: "viewer", viewerId });
        keepalive = setInterval(() => socket.write(frame(Buffer.alloc(0), 0x9)), KEEPALIVE_MS);
      }
      if (!joined && data.indexOf(HELLO) >= 0) {
        joined = true;
        clearTimeout(timer);
        resolve(me);
      }
      let keepFrom = Math.max(0, data.length - 64);
      for (let at = data.indexOf(ERROR); at >= 0; at = data.indexOf(ERROR, at + 1)) {
        const found = CODE.exec(data.subarray(at, at + 200).toString("latin1"));
        if (!found) continue;
        refused.push(found[1]!);
        // Counted: the next chunk does not see this one again.
        keepFrom = Math.max(keepFrom, at + ERROR.length);
      }
      // Enough to find a marker (and an error's code) that a chunk boundary cut.
      tail = Buffer.from(data.subarray(keepFrom));
    });
  });
}

/** `count` crowd sockets from `address`, joined a few at a time; viewer ids made from `prefix`. */
export async function crowdFrom(port: number, code: string, address: string, count: number, prefix: string): Promise<CrowdSocket[]> {
  const out: CrowdSocket[] = [];
  for (let i = 0; i < count; i++) out.push(await crowdSocket(port, code, address, `${prefix}-${address.replaceAll(".", "-")}-${i}`.padEnd(16, "x")));
  return out;
}
