/**
 * @module server
 * `deckhand serve`: lock the data directory (when state lives there), reach and migrate the
 * database, listen, log one line per request (the app logs its own answers; the server those
 * it gives itself), sweep expired handoffs, and shut down gracefully (stop accepting, give
 * in-flight requests a deadline, stop the PDF workers, close the database, release the lock).
 */
import { mkdirSync, readFileSync } from "node:fs";
import type { Server } from "bun";
import { type App, buildApp } from "./app.ts";
import { type Config, ConfigError } from "./base/config.ts";
import { AppError, isAppError, problemResponse } from "./base/errors.ts";
import type { Clock } from "./core/clock.ts";
import type { PdfReader } from "./core/pdf-reader.ts";
import { pathOf, routableRequest } from "./http/host.ts";
import { hostGuard } from "./http/middleware/request-guard.ts";
import { requestLog } from "./http/middleware/request-log.ts";
import { liveSocketCode, upgradeLiveSocket } from "./http/live-ws.ts";
import type { LiveSocketData } from "./live/hub.ts";
import type { Scheduler } from "./live/scheduler.ts";
import { errorFields, jsonLogger, type Logger } from "./base/log.ts";
import { createRuntime, type Runtime } from "./composition/runtime.ts";
import { usesDataDirAlone } from "./store/backends.ts";
import { DIR_MODE } from "./store/files.ts";
import { type DataDirLock, lockDataDir } from "./store/lock.ts";
import { tightenDataDir } from "./store/permissions.ts";

/** How often expired handoffs are swept: a minute, as docs/api/rest.md says (expiry itself is checked at every access). */
export const SWEEP_INTERVAL_MS = 60_000;
/** In-flight requests get this long after SIGTERM; then their connections are closed. */
export const SHUTDOWN_GRACE_MS = 10_000;
/**
 * Seconds a connection may stay silent before Bun closes it. Keeps idle keep-alive sockets
 * (and their file descriptors) from piling up; a body that trickles is bounded by the
 * upload slots and the body deadline (--body-timeout) instead.
 */
const IDLE_TIMEOUT_SECONDS = 30;
/**
 * Routes whose bodies are read by upload/body, which judges progress (an idle deadline and a
 * minimum average rate, answering 408). Bun's idle timer does not see body bytes arriving: it
 * cut a steady 4 KB/s upload at ~31 s with no answer at all, so it is off while such
 * a body is read and back on for the connection once the answer is ready.
 */
const BODY_JUDGED_PATHS = new Set(["/api/present", "/api/check", "/api/live", "/mcp"]);

export interface RunningServer {
  server: Server<LiveSocketData>;
  runtime: Runtime;
  url: string;
  /** Stop accepting, finish in-flight requests (at most SHUTDOWN_GRACE_MS), close everything. */
  shutdown(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Override SHUTDOWN_GRACE_MS (tests). */
  shutdownGraceMs?: number;
  /** The live sockets' timers (tests drive a manual scheduler); the system's by default. */
  liveScheduler?: Scheduler;
  /** A PDF reader to share (tests); by default the server starts its own pool of workers. */
  pdf?: PdfReader;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  mkdirSync(config.dataDir, { recursive: true, mode: DIR_MODE });
  // An existing directory keeps its mode through mkdir: owner-only now, or a warning.
  const startLogger = options.logger ?? jsonLogger();
  tightenDataDir(config.dataDir, (event, fields) => startLogger.error(event, { dataDir: config.dataDir, ...fields }));
  const tls = readTls(config);
  // Rows in PostgreSQL and bytes in a bucket: the data dir holds only this instance's upload
  // spool, and instances on one machine may share it. Otherwise state lives here: one owner.
  const lock: DataDirLock = usesDataDirAlone(config) ? lockDataDir(config.dataDir) : { release: () => {} };
  let runtime: Runtime | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    runtime = createRuntime(config, options);
    const { deps } = runtime;
    try {
      await runtime.storage.ready();
    } catch (error) {
      throw new ConfigError(`The database at --database-url cannot be used: ${(error as Error).message}`);
    }
    const peers = new WeakMap<Request, string>();
    deps.peerAddress = (request) => peers.get(request) ?? null;

    let sweeping: Promise<void> | null = null;
    const sweep = () => {
      // One sweep at a time: a slow one (a full disk, thousands of expiries) is never doubled.
      sweeping ??= deps.handoff
        .sweep()
        .then(async (result) => {
          // Finished rate-limit windows go too (a table when instances share the database).
          const prunedRateWindows = await deps.rateLimiter.prune(deps.clock());
          // Live sessions past --live-ttl end (their decks go) before the orphan sweep runs again.
          const liveCounts = await deps.live.sweep();
          const { swept, ...handoffCounts } = result;
          const counts = { ...handoffCounts, ...liveCounts };
          if (!swept) deps.logger.info("sweep_skipped", { reason: "another instance is sweeping" });
          else if (Object.values(counts).some((n) => n > 0) || prunedRateWindows > 0) deps.logger.info("sweep", { ...counts, prunedRateWindows });
        })
        .then(
          () => {},
          (error: unknown) => deps.logger.error("sweep_failed", errorFields(error)),
        )
        .finally(() => {
          sweeping = null;
        });
      return sweeping;
    };
    // Probe the database and the bucket every few seconds: /healthz reports them, the log
    // says when one goes down or comes back.
    runtime.storage.dependencies.start();
    // Start-up sweep: temp leftovers and rowless files of a crashed run go before we listen.
    await sweep();
    timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);

    const server = listen(config, tls, buildApp(deps), deps, peers);
    deps.liveHub.attach(server);
    let closing: Promise<void> | null = null;
    const opened = runtime;
    const grace = options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
    const shutdown = () => {
      closing ??= (async () => {
        clearInterval(timer);
        let graceTimer: ReturnType<typeof setTimeout> | undefined;
        // Live sockets never finish by themselves: close them first (clients reconnect to the
        // next server and resync), so they do not hold the graceful stop until its deadline.
        deps.liveHub.close();
        const graceful = server.stop(false).then(() => true);
        const deadline = new Promise<false>((resolve) => {
          graceTimer = setTimeout(() => resolve(false), grace);
        });
        if (!(await Promise.race([graceful, deadline]))) {
          deps.logger.info("shutdown_forced", { afterMs: grace });
          await server.stop(true);
        }
        clearTimeout(graceTimer);
        await sweeping;
        await opened.close();
        lock.release();
      })();
      return closing;
    };
    const url = `${tls ? "https" : "http"}://${formatHost(config.host)}:${server.port}`;
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

/** The TLS files, read now: a missing or unreadable one is a one-line configuration error. */
function readTls(config: Config): { cert: string; key: string } | null {
  if (!config.tlsCert || !config.tlsKey) return null;
  const read = (flag: string, path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      throw new ConfigError(`${flag} ${path}: ${(error as { code?: string }).code === "ENOENT" ? "no such file" : "cannot read it"}.`);
    }
  };
  return { cert: read("--tls-cert", config.tlsCert), key: read("--tls-key", config.tlsKey) };
}

function listen(config: Config, tls: { cert: string; key: string } | null, app: App, deps: Runtime["deps"], peers: WeakMap<Request, string>): Server<LiveSocketData> {
  const logger: Logger = deps.logger;
  const logRequest = requestLog(logger);
  try {
    return Bun.serve({
      port: config.port,
      hostname: config.host,
      // Never share the port with another process (development: false would allow it on Linux):
      // a second server must fail to start, not take half of the requests.
      reusePort: false,
      // No global cap: every route that reads a body streams it and caps it itself, answering
      // a problem document (Bun's own 413 is an empty body with no log line).
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      ...(tls ? { tls } : {}),
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      // Never Bun's development error page: it would echo the URL (with ?t=) and a stack.
      development: false,
      error: (error) => {
        logger.error("unhandled", errorFields(error));
        return problemResponse(new AppError("INTERNAL"));
      },
      // Live sessions' sockets, on Bun's native pub/sub.
      websocket: deps.liveHub.websocket,
      fetch: async (request, srv) => {
        const started = performance.now();
        let response: Response;
        let bodyJudged = false;
        let loggedByApp = false;
        try {
          const routed = routableRequest(request);
          // DNS rebinding: a loopback-bound server answers only for its own names.
          hostGuard(request, config);
          const peer = srv.requestIP(request)?.address;
          if (peer) peers.set(routed, peer);
          if (request.method === "POST" && BODY_JUDGED_PATHS.has(pathOf(request))) {
            srv.timeout(request, 0);
            bodyJudged = true;
          }
          const liveCode = liveSocketCode(routed);
          if (liveCode !== null) {
            // The original request: only it can be upgraded.
            if (peer) peers.set(request, peer);
            const refused = await upgradeLiveSocket(request, liveCode, srv, deps);
            if (refused === undefined) {
              logRequest(request, null, started);
              return undefined as unknown as Response;
            }
            response = refused;
          } else {
            response = await app.handle(routed);
            // The app logged its answer (./http/middleware/request-log.ts).
            loggedByApp = true;
          }
        } catch (error) {
          // Refused before the app saw it (an invalid Host); anything else is the app's bug.
          if (!isAppError(error)) logger.error("unhandled", errorFields(error));
          response = problemResponse(error);
        }
        if (bodyJudged) srv.timeout(request, IDLE_TIMEOUT_SECONDS);
        if (!loggedByApp) logRequest(request, response, started);
        return response;
      },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new ConfigError(`Port ${config.port} on ${config.host} is in use by another program; stop it or choose another --port.`);
    if (code === "EACCES") throw new ConfigError(`Not allowed to listen on port ${config.port}; choose a port above 1023 or grant the permission.`);
    if (code === "EADDRNOTAVAIL") throw new ConfigError(`${config.host} is not an address of this machine; choose another --host.`);
    if (tls) throw new ConfigError(`The TLS certificate or key cannot be used (${(error as Error).message}); give a PEM certificate and its private key.`);
    throw error;
  }
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}
