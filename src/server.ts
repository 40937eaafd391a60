/**
 * @module server
 * `deckhand serve`: listen, log one line per request, sweep expired handoffs, and shut down
 * gracefully (stop accepting, let in-flight requests finish, close the database).
 */
import type { Server } from "bun";
import { buildApp, REQUEST_ID_HEADER } from "./app.ts";
import { AppError, problemResponse } from "./errors.ts";
import type { Config } from "./config.ts";
import { MULTIPART_OVERHEAD_BYTES } from "./upload/receive.ts";
import { errorFields } from "./log.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import type { Clock } from "./handoff/service.ts";
import type { Logger } from "./log.ts";

/** How often expired handoffs are swept (DESIGN §2.2). */
export const SWEEP_INTERVAL_MS = 60_000;

export interface RunningServer {
  server: Server<unknown>;
  runtime: Runtime;
  url: string;
  /** Stop accepting, finish in-flight requests, close the database. */
  shutdown(): Promise<void>;
}

export function startServer(config: Config, options: { clock?: Clock; logger?: Logger } = {}): RunningServer {
  const runtime = createRuntime(config, options);
  const { deps } = runtime;
  const logger = deps.logger;
  const peers = new WeakMap<Request, string>();
  deps.peerAddress = (request) => peers.get(request) ?? null;

  const sweep = () => {
    try {
      const result = deps.handoff.sweep();
      if (result.expired + result.purgedTombstones + result.removedTemps + result.removedOrphans > 0) logger.info("sweep", { ...result });
    } catch (error) {
      logger.error("sweep_failed", errorFields(error));
    }
  };
  // Start-up sweep: temp leftovers and rowless files of a crashed run go before we listen.
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);

  const app = buildApp(deps);
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // Largest body: the MCP JSON carrying a base64 PDF (4/3 of the bytes) plus room.
    maxRequestBodySize: Math.ceil((config.maxUploadBytes * 4) / 3) + MULTIPART_OVERHEAD_BYTES + 1024 * 1024,
    ...(config.tlsCert && config.tlsKey ? { tls: { cert: Bun.file(config.tlsCert), key: Bun.file(config.tlsKey) } } : {}),
    idleTimeout: 120,
    // Never Bun's development error page: it would echo the URL (with ?t=) and a stack.
    development: false,
    error: (error) => {
      logger.error("unhandled", errorFields(error));
      return problemResponse(new AppError("INTERNAL"));
    },
    fetch: async (request, srv) => {
      const started = performance.now();
      const peer = srv.requestIP(request)?.address;
      if (peer) peers.set(request, peer);
      const response = await app.handle(request);
      logger.info("request", {
        requestId: response.headers.get(REQUEST_ID_HEADER),
        method: request.method,
        // The path only: query strings may carry a controller token (?t=).
        path: new URL(request.url).pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
      return response;
    },
  });

  let closing: Promise<void> | null = null;
  const shutdown = () => {
    closing ??= (async () => {
      clearInterval(timer);
      await server.stop(false);
      runtime.close();
    })();
    return closing;
  };
  const url = `${config.tlsCert ? "https" : "http"}://${formatHost(config.host)}:${server.port}`;
  logger.info("listening", { url, dataDir: config.dataDir, version: deps.version });
  return { server, runtime, url, shutdown };
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}
