/**
 * The bare relay: the baseline of the live fan-out benchmark (bench/live.ts;
 * docs/performance.md), run as its own process:
 *
 *   bun bench/lib/live-relay.ts PORT
 *
 * A minimal Bun server doing only the work any relay of a presenter's slide change must do: parse
 * the presenter's JSON, stamp a sequence number, serialise, and `server.publish` it to the topic
 * every viewer of the talk subscribes to. No schema check, no bounds, no snapshot kept or saved,
 * no audience, no per-address seats. It speaks just enough of deckhand's live wire format
 * (src/shared/live-protocol.ts) for the benchmark to drive it with the same client code:
 *
 * - `GET /healthz` answers 200.
 * - A WebSocket on `/api/live/CODE/ws` (any CODE): the first message must be a `join`; any join
 *   is accepted and answered `{"v":1,"type":"hello","role":…,"seq":…}`. A viewer (or remote)
 *   subscribes to the talk's topic; the presenter does not (deckhand's broadcast skips it too).
 * - Every later message from the presenter goes out as `{...message, "v": 1, "seq": n}` — the
 *   shape and key order deckhand relays a `state` in (src/live/presenter-state.ts) — to the topic. Anything
 *   a viewer sends is ignored.
 *
 * The sockets have deckhand's own limits (SOCKET_LIMITS: payload, backpressure, no compression).
 */
import { SOCKET_LIMITS } from "../../src/live/socket-policy.ts";

const port = Number(process.argv[2]);
if (!Number.isInteger(port)) {
  console.error("usage: bun bench/lib/live-relay.ts PORT");
  process.exit(2);
}

interface RelaySocket {
  topic: string;
  role: string | null;
}

/** Per talk code: the last sequence number stamped. */
const seqs = new Map<string, number>();
const PATH = /^\/api\/live\/([^/]+)\/ws$/;

const server = Bun.serve<RelaySocket>({
  port,
  hostname: "127.0.0.1",
  fetch(request, srv) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return new Response("ok");
    const code = PATH.exec(url.pathname)?.[1];
    if (code && srv.upgrade(request, { data: { topic: `live:${code}`, role: null } })) return undefined;
    return new Response("not found", { status: 404 });
  },
  websocket: {
    ...SOCKET_LIMITS,
    message(ws, raw) {
      const message = JSON.parse(String(raw)) as { type?: string; role?: string };
      if (ws.data.role === null) {
        if (message.type !== "join") return;
        const role = message.role === "presenter" ? "presenter" : message.role === "control" ? "control" : "viewer";
        ws.data.role = role;
        if (role !== "presenter") ws.subscribe(ws.data.topic);
        ws.send(JSON.stringify({ v: 1, type: "hello", role, seq: seqs.get(ws.data.topic) ?? 0 }));
        return;
      }
      if (ws.data.role !== "presenter") return;
      const seq = (seqs.get(ws.data.topic) ?? 0) + 1;
      seqs.set(ws.data.topic, seq);
      server.publish(ws.data.topic, JSON.stringify({ ...message, v: 1, seq }));
    },
  },
});
