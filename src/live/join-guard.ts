/**
 * @module live/join-guard
 * Guessing is what is limited, never watching. Codes are short enough to guess (31^6 ≈ 887
 * million): every lookup of an unknown code counts against the address (IPv6 by its /64) in
 * the shared rate-limit store, and past the limit the address is refused codes until its
 * window ends — every code except the talks it has opened already, so a venue behind one NAT
 * keeps watching (and reconnecting to) its talk while someone on the same network guesses.
 * Which talks an address opened is remembered in that store too, until the talk's end, so it
 * holds on every instance behind a load balancer (a viewer reconnecting through another one).
 * A talk the address has not opened yet is refused like an unknown code while the block runs:
 * answering it would tell a blocked guesser which codes exist.
 * Wrong presenter or remote secrets count per address and talk: past the limit that address
 * is refused that talk's secret doors (a presenter or remote join, end, rotate, notes) until the
 * window ends, and still follows it as a viewer. Successful joins never count: a whole
 * audience behind one conference NAT must be able to join.
 */
import { AppError } from "../errors.ts";
import { RateLimiter } from "../handoff/rate-limit.ts";
import type { RateLimitStore } from "../core/rate-limit.ts";
import { addressKey } from "../tools/address-key.ts";

/** Failed lookups (or wrong secrets of one talk) per address per minute: a person mistyping never gets near it. */
export const LIVE_JOIN_FAILURES_PER_MINUTE = 30;
/** Forget blocks once a table grows past this (the window has ended for most). */
const MAX_BLOCKED = 10_000;
/** Addresses whose opened talks this instance knows without asking the store; the least recently seen is forgotten first. */
const MAX_REMEMBERED_ADDRESSES = 10_000;
/** Talks known per address here (a venue's rooms); the oldest is forgotten first (the store still has it). */
const MAX_TALKS_PER_ADDRESS = 16;

/** The store's key for "the address `key` opened the talk `code`". */
const openedKey = (code: string, key: string) => `live-opened:${code}:${key}`;

export class LiveJoinGuard {
  private readonly limiter: RateLimiter;
  /** Address key → until when it is refused codes it has not opened. */
  private readonly codesBlocked = new Map<string, number>();
  /** `code address-key` → until when that address is refused the talk's secret doors. */
  private readonly secretsBlocked = new Map<string, number>();
  /**
   * Address key → the talks this instance knows it opened (it wrote or read them in the store),
   * oldest first (a Map keeps the order of insertion): opens of a known pair write nothing.
   */
  private readonly opened = new Map<string, Set<string>>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => number,
    limitPerMinute = LIVE_JOIN_FAILURES_PER_MINUTE,
  ) {
    this.limiter = new RateLimiter(store, limitPerMinute, clock);
  }

  /**
   * Throw RATE_LIMITED (429, Retry-After) while `address` is blocked for guessing codes and
   * `code` is not a talk it opened before, on this instance or another.
   */
  async checkCode(address: string, code: string): Promise<void> {
    const key = addressKey(address);
    const retryAfter = this.remaining(this.codesBlocked, key);
    if (retryAfter === null || this.opened.get(key)?.has(code)) return;
    if (await this.store.remembers(openedKey(code, key), this.clock())) return void this.know(key, code);
    throw new AppError("RATE_LIMITED", `Too many unknown talk codes from this address; retry in ${retryAfter} s and check the code.`, {
      headers: { "retry-after": String(retryAfter) },
    });
  }

  /**
   * `address` opened the talk `code` (it exists; it is open until `until`): a later block for
   * guessing leaves it open to that address, on every instance.
   */
  async openedTalk(address: string, code: string, until: number): Promise<void> {
    const key = addressKey(address);
    if (this.opened.get(key)?.has(code)) return void this.know(key, code);
    this.know(key, code);
    await this.store.remember(openedKey(code, key), this.clock(), until);
  }

  /** This instance knows that `key` opened `code` (most recently seen last: the first key is the one to forget). */
  private know(key: string, code: string): void {
    const talks = this.opened.get(key) ?? new Set<string>();
    this.opened.delete(key);
    this.opened.set(key, talks);
    if (talks.has(code)) return;
    talks.add(code);
    if (talks.size > MAX_TALKS_PER_ADDRESS) talks.delete(talks.values().next().value!);
    if (this.opened.size > MAX_REMEMBERED_ADDRESSES) this.opened.delete(this.opened.keys().next().value!);
  }

  /** Count one lookup of an unknown code from `address`. */
  async failCode(address: string): Promise<void> {
    const key = addressKey(address);
    await this.fail(`live-join:${key}`, this.codesBlocked, key);
  }

  /** Seconds until `address` may try the secrets of `code` again, or null when it may now. */
  secretsRetryAfter(address: string, code: string): number | null {
    return this.remaining(this.secretsBlocked, `${code} ${addressKey(address)}`);
  }

  /** Throw RATE_LIMITED (429, Retry-After) while `address` is blocked for guessing the secrets of `code`. */
  checkSecret(address: string, code: string): void {
    const retryAfter = this.secretsRetryAfter(address, code);
    if (retryAfter === null) return;
    throw new AppError("RATE_LIMITED", `Too many wrong secrets for this talk from this address; retry in ${retryAfter} s with the presenter secret or the current remote link.`, {
      headers: { "retry-after": String(retryAfter) },
    });
  }

  /** Count one wrong presenter or remote secret of `code` from `address`. */
  async failSecret(address: string, code: string): Promise<void> {
    const key = addressKey(address);
    await this.fail(`live-secret:${code}:${key}`, this.secretsBlocked, `${code} ${key}`);
  }

  private async fail(counter: string, blocked: Map<string, number>, key: string): Promise<void> {
    const decision = await this.limiter.hit(counter);
    if (decision.allowed) return;
    if (blocked.size >= MAX_BLOCKED) blocked.clear();
    blocked.set(key, this.clock() + decision.retryAfter * 1000);
  }

  /** Seconds left of `key`'s block in `blocked` (at least 1), or null when none is running. */
  private remaining(blocked: Map<string, number>, key: string): number | null {
    const until = blocked.get(key);
    if (until === undefined) return null;
    const now = this.clock();
    if (until <= now) {
      blocked.delete(key);
      return null;
    }
    return Math.max(1, Math.ceil((until - now) / 1000));
  }
}
