/**
 * @module store/dependencies
 * The outside services a multi-instance deployment depends on (PostgreSQL, the S3 bucket)
 * can hang or go away. Every call to one goes through a `DependencyMonitor`:
 *
 * - it has a deadline: a call that does not finish in time fails with 503
 *   `STORAGE_UNAVAILABLE` and `Retry-After`, instead of holding the request for minutes;
 * - a connection-level failure (refused, reset, closed, the server shutting down) is that same
 *   503, not a 500 `INTERNAL`: the request was fine, the dependency was not;
 * - the outcome keeps each dependency's state, which /healthz reports (a load balancer stops
 *   sending traffic to an instance that cannot reach them) and `deckhand serve` logs once per
 *   change; a probe every PROBE_INTERVAL_MS notices recovery when no request comes.
 *
 * The embedded stores (SQLite, files) are in-process and registered as always up.
 */
import { AppError } from "../base/errors.ts";

export type DependencyName = "database" | "storage";
type DependencyState = "up" | "down";

export interface DependencyStatus {
  /** What serves it: "sqlite", "files", "postgres", "s3". */
  kind: string;
  state: DependencyState;
  /** When it entered this state (ISO 8601). */
  since: string;
  /** Why it is down (a short, path-free sentence). */
  reason?: string;
}

/** What a client is told to wait before trying again: a probe has run by then. */
export const RETRY_AFTER_SECONDS = 5;
/** How often each dependency is probed: recovery (or an outage) shows within seconds. */
const PROBE_INTERVAL_MS = 5_000;

/** A deadline that passed, as an error the monitor recognises. */
class DeadlineError extends Error {
  readonly code = "ETIMEDOUT";
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/** `work`, or a DeadlineError after `ms` (the work itself goes on; its outcome is dropped). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  work.catch(() => {}); // a late failure after the deadline is nobody's unhandled rejection
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const CONNECTION_CODES =
  /^(ETIMEDOUT|ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ConnectionRefused|ConnectionClosed|ConnectionReset|UnableToConnect|FailedToOpenSocket|ERR_POSTGRES_CONNECTION_CLOSED|ERR_POSTGRES_CONNECTION_TIMEOUT|ERR_POSTGRES_IDLE_TIMEOUT|ERR_POSTGRES_LIFETIME_TIMEOUT|InternalError|ServiceUnavailable|SlowDown|RequestTimeout)$/;

/**
 * Whether `error` says the dependency is unreachable or unwell, rather than that this request
 * was refused: a connection failure, a server shutting down (SQLSTATE 57P*, 08*), an S3 5xx.
 */
function isUnavailable(error: unknown): boolean {
  if (error instanceof DeadlineError) return true;
  const e = error as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && CONNECTION_CODES.test(e.code)) return true;
  if (typeof e.errno === "string" && /^(57P0[1-3]|08\d{3}|53300)$/.test(e.errno)) return true;
  // Bun's fetch-based S3 client reports a refused or dropped socket by name and message.
  const text = `${typeof e.name === "string" ? e.name : ""} ${typeof e.message === "string" ? e.message : ""}`;
  return /connection (refused|closed|reset)|socket (connection was )?closed|unable to connect|failed to connect|ECONNREFUSED|ECONNRESET/i.test(text);
}

interface DependencyMonitorOptions {
  /** Deadline of one call to a dependency, in ms (--dependency-timeout). */
  timeoutMs: number;
  /** Told once per change of a dependency's state (the serve log). */
  onChange?: (name: DependencyName, status: DependencyStatus) => void;
  clock?: () => number;
}

interface Entry {
  kind: string;
  state: DependencyState;
  since: number;
  reason?: string;
  probe?: () => Promise<unknown>;
  /** The probe under way (never two at once, even if one hangs past its deadline). */
  probing?: Promise<unknown>;
}

export class DependencyMonitor {
  readonly timeoutMs: number;
  private readonly entries = new Map<DependencyName, Entry>();
  private readonly onChange: DependencyMonitorOptions["onChange"];
  private readonly clock: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: DependencyMonitorOptions) {
    this.timeoutMs = options.timeoutMs;
    this.onChange = options.onChange;
    this.clock = options.clock ?? Date.now;
  }

  /** A dependency, up until a call or a probe says otherwise. Without a probe it is in-process. */
  register(name: DependencyName, kind: string, probe?: () => Promise<unknown>): void {
    this.entries.set(name, { kind, state: "up", since: this.clock(), ...(probe ? { probe } : {}) });
  }

  /** Record an outcome; tell `onChange` when it changes the state. */
  report(name: DependencyName, up: boolean, reason?: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    const state: DependencyState = up ? "up" : "down";
    if (entry.state === state) return;
    entry.state = state;
    entry.since = this.clock();
    if (up) delete entry.reason;
    else entry.reason = reason ?? "unreachable";
    this.onChange?.(name, this.statusOf(entry));
  }

  /** The error a caller sees when `name` cannot be used now. */
  unavailable(name: DependencyName, cause?: unknown): AppError {
    const what = name === "database" ? "The database" : "The storage bucket";
    return new AppError("STORAGE_UNAVAILABLE", `${what} behind this server does not answer; wait for the time given in Retry-After and try again.`, {
      cause,
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    });
  }

  /**
   * Run one call to `name`: with the deadline unless `bounded` is false (a long upload that
   * bounds each of its own steps), its connection failures turned into STORAGE_UNAVAILABLE.
   */
  async call<T>(name: DependencyName, work: () => Promise<T>, bounded = true): Promise<T> {
    try {
      const started = work();
      const result = await (bounded ? withDeadline(started, this.timeoutMs, name) : started);
      this.report(name, true);
      return result;
    } catch (error) {
      if (!isUnavailable(error)) throw error; // the dependency answered: e.g. a constraint, a missing key
      this.report(name, false, reasonOf(error));
      throw this.unavailable(name, error);
    }
  }

  /** Probe every dependency that has a probe, at most one probe each at a time. */
  async probe(): Promise<void> {
    await Promise.all(
      [...this.entries].map(async ([name, entry]) => {
        if (!entry.probe || entry.probing) return;
        const probing = entry.probe();
        entry.probing = probing;
        probing.then(
          () => (entry.probing = undefined),
          () => (entry.probing = undefined),
        );
        try {
          await withDeadline(probing, this.timeoutMs, name);
          this.report(name, true);
        } catch (error) {
          this.report(name, false, reasonOf(error));
        }
      }),
    );
  }

  /** Probe now and every `intervalMs` until stop(). */
  start(intervalMs = PROBE_INTERVAL_MS): this {
    if (this.timer) return this;
    void this.probe();
    this.timer = setInterval(() => void this.probe(), intervalMs);
    this.timer.unref?.();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  snapshot(): Record<string, DependencyStatus> {
    return Object.fromEntries([...this.entries].map(([name, entry]) => [name, this.statusOf(entry)]));
  }

  /** Whether every dependency is up: the instance can serve uploads and downloads. */
  ready(): boolean {
    return [...this.entries.values()].every((e) => e.state === "up");
  }

  private statusOf(entry: Entry): DependencyStatus {
    return { kind: entry.kind, state: entry.state, since: new Date(entry.since).toISOString(), ...(entry.reason ? { reason: entry.reason } : {}) };
  }
}

/** A short reason for the log and /healthz: the error's code or class, never a URL or path. */
function reasonOf(error: unknown): string {
  if (error instanceof DeadlineError) return `no answer within the deadline`;
  const e = error as { code?: unknown; errno?: unknown; name?: unknown } | null;
  if (e && typeof e.code === "string") return `connection failed (${e.code})`;
  if (e && typeof e.errno === "string") return `server error (SQLSTATE ${e.errno})`;
  return "connection failed";
}

/**
 * `target` with every method that returns a promise run through `monitor.call(name, …)`.
 * Methods named in `unbounded` keep no overall deadline (they bound their own steps).
 */
export function guarded<T extends object>(target: T, name: DependencyName, monitor: DependencyMonitor, unbounded: readonly string[] = []): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = value.apply(object, args);
        } catch (error) {
          if (isUnavailable(error)) throw monitor.unavailable(name, error);
          throw error;
        }
        if (!(result instanceof Promise)) return result;
        return monitor.call(name, () => result as Promise<unknown>, !unbounded.includes(String(property)));
      };
    },
  });
}
