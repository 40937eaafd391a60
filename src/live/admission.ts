/**
 * @module live/admission
 * Who may take a role in a loaded talk: a presenter or a remote by its secret (wrong secrets
 * counted per address and talk, ./join-guard.ts), a viewer by a free seat (the talk's size,
 * the per-address cap, and the address's share as the talk fills, ./fair-share.ts). A refused
 * socket gets its coded problem and close code here; the hub joins the ones let in.
 */
import { LIVE_CLOSE, type LiveRoleT } from "../shared/live-protocol.ts";
import { tokenMatches } from "../security/secrets.ts";
import { errorFields, type Logger } from "../base/log.ts";
import { mayTake } from "./fair-share.ts";
import type { LiveJoinGuard } from "./join-guard.ts";
import { type Room, seatsOf } from "./room.ts";
import type { LiveSocket, SocketPolicy } from "./socket-policy.ts";

export interface AdmissionDeps {
  policy: SocketPolicy;
  logger: Logger;
  maxViewers: number;
  /** Viewer seats of one talk one address (IPv6 /64) may hold. */
  maxViewersPerAddress: number;
  /** Wrong presenter and remote secrets, counted per address and talk: past the limit, that address's secret joins of the talk are refused. */
  secrets: Pick<LiveJoinGuard, "secretsRetryAfter" | "failSecret">;
}

export class Admission {
  constructor(private readonly deps: AdmissionDeps) {}

  /** Whether `ws` may join `room` as `role` (with `secret`); when not, `ws` has been refused. */
  admit(ws: LiveSocket, room: Room, role: LiveRoleT, secret: string | undefined): boolean {
    const { policy, logger, secrets } = this.deps;
    if (role === "presenter" || role === "control") {
      const retryAfter = secrets.secretsRetryAfter(ws.data.address, room.code);
      if (retryAfter !== null) {
        logger.info("live_refused", { code: room.code, role, reason: "RATE_LIMITED", address: ws.data.address });
        policy.refuse(ws, "RATE_LIMITED", `Too many wrong secrets for this talk from this network address; retry in ${retryAfter} s.`, LIVE_CLOSE.RATE_LIMITED);
        return false;
      }
      const hash = role === "presenter" ? room.row.presenterHash : room.row.controlHash;
      if (!secret || !tokenMatches(secret, hash)) {
        logger.info("live_auth_failed", { code: room.code, role, address: ws.data.address });
        void secrets.failSecret(ws.data.address, room.code).catch((error) => logger.error("live_message_failed", { code: room.code, ...errorFields(error) }));
        policy.refuse(ws, "AUTH_FAILED", role === "presenter" ? "The presenter secret does not match this live talk." : "The remote link is not (or no longer) valid; ask the presenter for the current one.", LIVE_CLOSE.AUTH_FAILED);
        return false;
      }
    }
    if (role === "viewer") {
      const refusal = this.seatRefusal(room, ws);
      if (refusal !== null) {
        policy.refuse(ws, "FULL", refusal, LIVE_CLOSE.FULL);
        return false;
      }
    }
    return true;
  }

  /**
   * Why the address of `ws` gets no viewer seat of `room` now, or null when it gets one: the
   * talk is full, the address holds --max-viewers-per-address, or it holds its share of the
   * seats as the talk fills (./fair-share.ts) — refusals of an address are logged.
   */
  private seatRefusal(room: Room, ws: LiveSocket): string | null {
    const held = seatsOf(room, ws);
    const verdict = mayTake({ size: this.deps.maxViewers, taken: room.viewers.size }, held);
    if (verdict === "full") return "This live talk has as many viewers as the server admits; try again later.";
    const cap = Math.min(this.deps.maxViewersPerAddress, this.deps.maxViewers);
    if (held < cap && verdict === "ok") return null;
    this.deps.logger.info("live_refused", { code: room.code, role: "viewer", reason: "FULL", address: ws.data.address, held, limit: held >= cap ? "per-address" : "share" });
    return held >= cap
      ? `This network address already holds ${cap} of this talk's seats, as many as one address may (--max-viewers-per-address); try again later or from another network.`
      : `This network address already holds ${held} of this talk's seats, its share while the talk fills (the rest stay for other networks); try again later or from another network.`;
  }
}
