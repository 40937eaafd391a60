/**
 * A crowd of live viewers from one test process: hundreds of WebSockets, each from the loopback
 * address it is given (127.0.0.x: Linux routes all of 127/8 to the loopback interface, and the
 * server counts seats, questions and votes per address), each joined with its own viewer id.
 * Made for floods: a crowd socket speaks just enough of RFC 6455 to join and send (masked text
 * frames, a ping now and then so the server never finds it idle) and reads nothing but what it
 * must — its hello, and the codes of the errors it is sent (one native search per chunk) — so that three hundred of them
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
  /** The connection ended (the server closed it, or `close`). */
  readonly closed: boolean;
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

const STATE = Buffer.from('{"v":1,"type":"state"');

/** A viewer from `address` on talk `code` of the server at 127.0.0.1:`port`; resolves once its hello came. `onState`: each slide change (a state message) it received. */
export function crowdSocket(port: number, code: string, address: string, viewerId: string, onState?: () => void): Promise<CrowdSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: "127.0.0.1", port, localAddress: address });
    const refused: string[] = [];
    let upgraded = false;
    let joined = false;
    let keepalive: ReturnType<typeof setInterval> | undefined;
    /** What came before the hello, kept until the hello is whole. */
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => fail(new Error(`crowd socket from ${address}: no hello within ${JOIN_MS} ms`)), JOIN_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      clearInterval(keepalive);
      socket.destroy();
      reject(error);
    };
    let closed = false;
    socket.on("close", () => (closed = true));
    const me: CrowdSocket = {
      address,
      viewerId,
      refused,
      get closed() {
        return closed;
      },
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
      if (joined) {
        if (onState) for (let at = chunk.indexOf(STATE); at >= 0; at = chunk.indexOf(STATE, at + 1)) onState();
        // The cheap path, taken by the flood: one native search of the chunk as it came. An
        // error frame is a few dozen bytes; one cut by a chunk boundary goes uncounted.
        for (let at = chunk.indexOf(ERROR); at >= 0; at = chunk.indexOf(ERROR, at + 1)) {
          const found = CODE.exec(chunk.toString("latin1", at, at + 200));
          if (found) refused.push(found[1]!);
        }
        return;
      }
      const data = head.length ? Buffer.concat([head, chunk]) : chunk;
      if (!upgraded) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) {
          head = Buffer.from(data);
          return;
        }
        const status = data.toString("latin1", 0, data.indexOf("\r\n"));
        if (!status.includes(" 101 ")) return fail(new Error(`crowd socket from ${address}: ${status}`));
        upgraded = true;
        me.send({ type: "join", role: "viewer", viewerId });
        keepalive = setInterval(() => socket.write(frame(Buffer.alloc(0), 0x9)), KEEPALIVE_MS);
        head = Buffer.from(data.subarray(end + 4));
      } else head = Buffer.from(data);
      if (head.indexOf(HELLO) >= 0) {
        joined = true;
        head = Buffer.alloc(0);
        clearTimeout(timer);
        resolve(me);
      }
    });
  });
}

/** `count` crowd sockets from `address`, joined one after another; viewer ids made from `prefix`. */
export async function crowdFrom(port: number, code: string, address: string, count: number, prefix: string, onState?: () => void): Promise<CrowdSocket[]> {
  const out: CrowdSocket[] = [];
  for (let i = 0; i < count; i++) out.push(await crowdSocket(port, code, address, `${prefix}-${address.replaceAll(".", "-")}-${i}`.padEnd(16, "x"), onState));
  return out;
}

/** `perAddress` crowd sockets from each of `addresses`, the addresses in parallel. */
export function crowdOf(port: number, code: string, addresses: readonly string[], perAddress: number, prefix: string, onState?: () => void): Promise<CrowdSocket[][]> {
  return Promise.all(addresses.map((address) => crowdFrom(port, code, address, perAddress, prefix, onState)));
}

/** `count` loopback addresses from the `from`-th on: 127.0.0.2 and up (127.0.0.1 is the test's own). */
export function loopbackAddresses(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${Math.floor((from + i) / 250)}.${((from + i) % 250) + 2}`);
}

/** A question of a realistic length (the limit is 280 characters). */
const questionText = (address: string, n: number) => `From ${address}, question ${n}: how does the presenter keep up when a whole room asks at once, and does the order of the questions stay still while the votes come in?`;

/** Each asker sends `rounds` questions, one a round, the rounds spread over `windowMs`; resolves with how many were sent. */
export async function askRounds(askers: readonly CrowdSocket[], rounds: number, windowMs: number): Promise<number> {
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    for (const socket of askers) socket.send({ type: "ask", text: questionText(socket.address, ++sent), name: `Guest ${sent}` });
    await Bun.sleep(windowMs / rounds);
  }
  return sent;
}

/**
 * Every voter up-votes `perSecond` times a second for `seconds`, each time another of `ids`,
 * the sends spread over each interval. Like a room, the crowd votes for the questions of the
 * moment: `hot` at a time, others at each interval (the server sends every changed question to
 * every viewer, so votes spread over all of them at once would have this one process read some
 * 140,000 frames a second for 300 viewers — it, not deckhand, would be measured). Resolves with
 * the up-votes sent.
 */
export async function voteRounds(voters: readonly CrowdSocket[], ids: readonly string[], perSecond: number, seconds: number, hot = 10): Promise<number> {
  const ticks = seconds * perSecond;
  if (ticks * hot > ids.length) throw new Error(`voteRounds: ${ticks} rounds of ${hot} questions need ${ticks * hot} questions, not ${ids.length}`);
  const slices = 10;
  for (let tick = 0; tick < ticks; tick++) {
    for (let slice = 0; slice < slices; slice++) {
      const started = performance.now();
      voters.forEach((socket, i) => {
        // Each voter its own question of the hot ones, a new one every round: never the same twice.
        if (i % slices === slice) socket.send({ type: "upvote", questionId: ids[tick * hot + ((i + slice) % hot)]! });
      });
      await Bun.sleep(Math.max(0, 1000 / perSecond / slices - (performance.now() - started)));
    }
  }
  return voters.length * ticks;
}
