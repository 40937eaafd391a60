/**
 * @module server
 * `deckhand serve`: lock the data directory, listen, log one line per request, sweep expired
 * handoffs, and shut down gracefully (stop accepting, let in-flight requests finish, close
 * the database, release the lock).
 */
import { mkdirSync } from "node:fs";
import type { Server } from "bun";
import { type App, buildApp, REQUEST_ID_HEADER } from "./app.ts";
import type { Config } from "./config.ts";
import { AppError, problemResponse } from "./errors.ts";
import type { Clock } from "./handoff/service.ts";
import { errorFields, type Logger } from "./log.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { lockDataDir } from "./store/lock.ts";

/** How often expired handoffs are swept (DESIGN §2.2). */
export const SWEEP_INTERVAL_MS = 60_000;

export interface RunningServer {
  server: Server<unknown>;
  runtime: Runtime;
  url: string;
  /** Stop accepting, finish in-flight requests, close the database, release the lock. */
  shutdown(): Promise<void>;
}

export function startServer(config: Config, options: { clock?: Clock; logger?: Logger } = {}): RunningServer {
  mkdirSync(config.dataDir, { recursive: true });
  const lock = lockDataDir(config.dataDir);
  let runtime: Runtime | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    runtime = createRuntime(config, options);
    const { deps } = runtime;
    const peers = new WeakMap<Request, string>();
    deps.peerAddress = (request) => peers.get(request) ?? null;

    const sweep = () => {
      try {
        const result = deps.handoff.sweep();
        if (result.expired + result.purgedTombstones + result.removedTemps + result.removedOrphans > 0) deps.logger.info("sweep", { ...result });
      } catch (error) {
        deps.logger.error("sweep_failed", errorFields(error));
      }
    };
    // Start-up sweep: temp leftovers and rowless files of a crashed run go before we listen.
    sweep();
    timer = setInterval(sweep, SWEEP_INTERVAL_MS);

    const server = listen(config, buildApp(deps), deps.logger, peers);
    let closing: Promise<void> | null = null;
    const opened = runtime;
    const shutdown = () => {
      closing ??= (async () => {
        clearInterval(timer);
        await server.stop(false);
        await opened.close();
        lock.release();
      })();
      return closing;
    };
    const url = `${config.tlsCert ? "https" : "http"}://${formatHost(config.host)}:${server.port}`;
    deps.logger.info("listening", { url, dataDir: config.dataDir, version: deps.version });
    // mupdf loads in a worker process while the server already answers.
    runtime.warm();
    return { server, runtime, url, shutdown };
  } catch (error) {
    clearInterval(timer);
    void runtime?.close();
    lock.release();
    throw error;
  }
}

function listen(config: Config, app: App, logger: Logger, peers: WeakMap<Request, string>): Server<unknown> {
  return Bun.serve({
    port: config.port,
    hostname: config.host,
    // Never share the port with another process (development: false would allow it on Linux):
    // a second server must fail to start, not take half of the requests.
    reusePort: false,
    // No global cap: every route that reads a body streams it and caps it itself, answering
    // a problem document (Bun's own 413 is an empty body with no log line).
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
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
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}
