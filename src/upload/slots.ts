/**
 * @module upload/slots
 * How many uploads may be receiving at once: per client address and in total. Each upload
 * holds a socket, a temp file and disk bandwidth for as long as its body trickles in, so
 * without a bound a few thousand slow uploads exhaust the file descriptors and stall
 * everyone (the audit reached the fd limit with ~10,500). A slot is taken before the body is
 * read and given back when the request is done with it.
 *
 * Per instance by nature: a slot stands for this process's sockets, descriptors and spool
 * disk, which other instances do not share. Behind a load balancer each instance bounds its
 * own; the totals add up (docs/operating/several-instances.md).
 */
import { AppError } from "../base/errors.ts";
import { addressKey } from "../tools/address-key.ts";
import { RATE_WINDOW_MS, type RecentRate } from "./recent-rate.ts";

export interface UploadSlotLimits {
  perAddress: number;
  total: number;
}

/** Seconds a refused client should wait: about one upload's time on a slow line. */
const RETRY_AFTER_SECONDS = 10;

/**
 * When every slot is taken, the upload arriving slowest gives its slot to a newcomer, so
 * trickling clients (from as many addresses as they like) cannot hold the whole server. A
 * holder is judged once it had EVICT_AFTER_MS, and only while its body brought less than
 * HEALTHY_RATE over the last RATE_WINDOW_MS (upload/recent-rate): a burst up front buys no
 * more than the window.
 */
/** Time a holder has before its rate is judged: a connection's slow start. */
const EVICT_AFTER_MS = 3_000;
/** An upload at least this fast (bytes/s) is never evicted: a phone on a poor line sends more. */
const HEALTHY_RATE = 16 * 1024;

/** What the body reader (upload/body) reports of an upload holding a slot. */
export interface SlotProgress {
  /** How fast the body has been arriving; null until the body reader starts (only bodies it reads can be judged). */
  rate: RecentRate | null;
  /** Rejects when the slot is given to another upload (408 REQUEST_TIMEOUT). */
  readonly evicted: Promise<never>;
}

interface Holder {
  started: number;
  progress: SlotProgress;
  evict(error: AppError): void;
  release(): void;
}

/** The slot each admitted request holds, for its body reader to report progress to. */
const progressOf = new WeakMap<Request, SlotProgress>();

/** The progress record of the slot `request` holds, if it holds one. */
export function slotProgress(request: Request): SlotProgress | undefined {
  return progressOf.get(request);
}

export class UploadSlots {
  private readonly byKey = new Map<string, number>();
  private active = 0;
  private readonly holders = new Set<Holder>();

  constructor(private readonly limits: UploadSlotLimits) {}

  /** Uploads receiving now (for tests and logs). */
  get inUse(): number {
    return this.active;
  }

  /**
   * Take a slot for an upload from `address`; returns its release function (idempotent).
   * 429 TOO_MANY_UPLOADS when this address has all of its own, 503 SERVER_BUSY when the
   * server has none left. Both close the connection: the body is never read.
   */
  acquire(address: string, options: { perAddress: boolean; request?: Request } = { perAddress: true }): () => void {
    const key = addressKey(address);
    const mine = this.byKey.get(key) ?? 0;
    // A caller with an access token is trusted with its own concurrency (a CI runner, say);
    // it still counts toward the total.
    if (options.perAddress && mine >= this.limits.perAddress) {
      throw new AppError(
        "TOO_MANY_UPLOADS",
        `This address already has ${mine} uploads in progress, the most this server takes at once from one address; wait for one to finish, then send this one again.`,
        { headers: { "retry-after": String(RETRY_AFTER_SECONDS), connection: "close" } },
      );
    }
    if (this.active >= this.limits.total) this.evictSlowest();
    if (this.active >= this.limits.total) {
      throw new AppError("SERVER_BUSY", `The server is receiving ${this.active} uploads, as many as it takes at once; retry in ${RETRY_AFTER_SECONDS} s.`, {
        headers: { "retry-after": String(RETRY_AFTER_SECONDS), connection: "close" },
      });
    }
    this.byKey.set(key, mine + 1);
    this.active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.holders.delete(holder);
      this.active--;
      const left = (this.byKey.get(key) ?? 1) - 1;
      if (left <= 0) this.byKey.delete(key);
      else this.byKey.set(key, left);
    };
    let evict: (error: AppError) => void = () => {};
    const evicted = new Promise<never>((_, reject) => (evict = reject));
    evicted.catch(() => {});
    const holder: Holder = { started: performance.now(), progress: { rate: null, evicted }, evict, release };
    this.holders.add(holder);
    if (options.request) progressOf.set(options.request, holder.progress);
    return release;
  }

  /** Give the slot of the slowest upload below HEALTHY_RATE over the last RATE_WINDOW_MS (past EVICT_AFTER_MS) back, failing its body read with 408. */
  private evictSlowest(): void {
    const now = performance.now();
    let slowest: Holder | null = null;
    let slowestRate = HEALTHY_RATE;
    for (const holder of this.holders) {
      const rate = holder.progress.rate;
      if (!rate || now - holder.started < EVICT_AFTER_MS) continue;
      const recent = rate.perSecond(RATE_WINDOW_MS, now);
      if (recent < slowestRate) {
        slowest = holder;
        slowestRate = recent;
      }
    }
    if (!slowest) return;
    slowest.release();
    slowest.evict(
      new AppError(
        "REQUEST_TIMEOUT",
        `The request body arrived at ${Math.round(slowestRate)} bytes/s over the last ${RATE_WINDOW_MS / 1000} s, too slowly to keep an upload slot while the server is full; send the request again on a faster connection.`,
        { headers: { connection: "close" } },
      ),
    );
  }
}
