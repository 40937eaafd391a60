/**
 * @module live/service
 * The live-session domain (a talk followed by viewers over the network): go live with an
 * uploaded deck (and the notes file beside it, kept with the row for the remote and the
 * presenter), look a session up by its code, end it (bytes and notes deleted at once, the row
 * kept as a tombstone so the code answers 410), rotate the control secret, issue and check
 * live grants, and end expired sessions. No HTTP and no sockets here: it tells the socket hub
 * (./hub.ts) through the `LiveEvents` port (./events.ts).
 */
import { randomInt } from "../tools/random.ts";
import { LIVE_CODE_ALPHABET, LIVE_CODE_LENGTH, LIVE_CODE_PATTERN } from "../shared/live-protocol.ts";
import { AppError } from "../errors.ts";
import type { LiveCreated } from "../shared/live-created.ts";
import type { BlobStore } from "../core/blobs.ts";
import type { LiveEndReason, LiveSessionRepository, LiveSessionRow } from "../core/live-sessions.ts";
import type { SessionRepository } from "../core/sessions.ts";
import { displayTitle } from "../handoff/filename.ts";
import { inspectUpload } from "../handoff/inspect-upload.ts";
import type { Clock } from "../core/clock.ts";
import type { ReceivedUpload } from "../core/received-upload.ts";
import { TOMBSTONE_TTL_MS } from "../handoff/service.ts";
import { isoSeconds } from "../tools/time.ts";
import { liveGrantFor, newControllerToken, sha256Hex, tokenMatches } from "../handoff/secrets.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import type { LiveEvents } from "./events.ts";

/** A live grant (issued at a claim) lets its holder go live with that deck for this long. */
export const LIVE_GRANT_TTL_MS = 2 * 60 * 60 * 1000;
/** Codes drawn before giving up: with 31^6 ≈ 887 M codes a collision is already rare. */
const CODE_ATTEMPTS = 20;
const CODE_RE = new RegExp(LIVE_CODE_PATTERN);

export interface LiveServiceDeps {
  repo: LiveSessionRepository;
  /** Handoff rows: their staged bytes share the --max-staged-gb quota with live decks. */
  sessions: SessionRepository;
  blobs: BlobStore;
  pdf: PdfReader;
  clock: Clock;
  ttlMs: number;
  maxStagedBytes: number;
  /** --live-presenter-grace: a talk whose presenter has been away this long is ended by the sweep. */
  presenterGraceMs: number;
  /** The sockets of this instance: told of ends and rotations, asked where a presenter is. */
  events: LiveEvents;
}

export function newLiveCode(): string {
  let code = "";
  for (let i = 0; i < LIVE_CODE_LENGTH; i++) code += LIVE_CODE_ALPHABET[randomInt(LIVE_CODE_ALPHABET.length)];
  return code;
}

export const viewerUrl = (baseUrl: string, code: string) => `${baseUrl}/live/${code}`;
/** The control secret rides in the fragment: it never reaches a server log or a Referer. */
export const controlUrl = (baseUrl: string, code: string, secret: string) => `${baseUrl}/live/${code}/control#${secret}`;

export class LiveService {
  constructor(private readonly deps: LiveServiceDeps) {}

  get repo(): LiveSessionRepository {
    return this.deps.repo;
  }

  async assertCapacity(bytes: number): Promise<void> {
    const used = (await this.deps.sessions.stagedBytes()) + (await this.deps.repo.openBytes());
    if (used + bytes > this.deps.maxStagedBytes) throw new AppError("STORAGE_FULL", "The server's space for decks is full; end a live talk or let handoffs expire, or raise --max-staged-gb.");
  }

  /** Is `grant` a live grant in force? (Checked before the body is read; its deck after.) */
  async grantFor(grant: string): Promise<{ sha256: string } | null> {
    return this.deps.repo.getGrant(sha256Hex(grant), this.deps.clock());
  }

  /**
   * The live grant of a handoff claimed at `claimedAt` with `controllerToken`: derived from the
   * token and timed from the claim, so a repeated complete (a retry after a lost answer) gets
   * the same grant with the same expiry and writes the same row — never a fresh two hours.
   * Null once that grant has expired.
   */
  async claimGrant(controllerToken: string, sha256: string, claimedAt: number): Promise<{ grant: string; expiresAt: string } | null> {
    const expiresAt = Math.floor((claimedAt + LIVE_GRANT_TTL_MS) / 1000) * 1000;
    if (expiresAt <= this.deps.clock()) return null;
    const grant = liveGrantFor(controllerToken);
    await this.deps.repo.insertGrant({ hash: sha256Hex(grant), sha256, expiresAt });
    return { grant, expiresAt: isoSeconds(expiresAt) };
  }

  /**
   * Validate a fully received upload (and its notes file) and open a live session for it.
   * Consumes `upload.temp` and the notes file's temp in every case. `grantSha256`: the upload
   * came with a live grant for this digest only.
   */
  async create(upload: ReceivedUpload, options: { baseUrl: string; grantSha256?: string }): Promise<LiveCreated> {
    try {
      if (options.grantSha256 !== undefined && options.grantSha256 !== upload.sha256) {
        throw new AppError("LIVE_GRANT_INVALID", "The live grant was issued for another deck than the one uploaded; upload the deck the handoff link gave you, or send an access token.");
      }
      await this.assertCapacity(upload.bytes);
      const { info, notes, notesText, notesWarnings } = await inspectUpload(this.deps.pdf, upload);
      const now = this.deps.clock();
      const presenterSecret = newControllerToken();
      const controlSecret = newControllerToken();
      const expiresAt = Math.floor((now + this.deps.ttlMs) / 1000) * 1000;
      for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
        const code = newLiveCode();
        if (await this.deps.repo.get(code)) continue;
        const row: LiveSessionRow = {
          code,
          blobId: `live-${code}`,
          filename: displayTitle(upload.uploadName),
          totalSlides: info.pageCount,
          bytes: upload.bytes,
          sha256: upload.sha256,
          presenterHash: sha256Hex(presenterSecret),
          controlHash: sha256Hex(controlSecret),
          controlGeneration: 1,
          allowDownload: false,
          createdAt: now,
          expiresAt,
          endedAt: null,
          endReason: null,
          stateJson: null,
          audienceJson: null,
          // The presenter is the one going live: its grace period runs from now until it joins.
          presenterSeenAt: now,
          notes,
        };
        // Bytes first, then the row (as for handoffs): a crash between leaves an orphan file
        // that the sweeper removes, never a row without bytes.
        await this.deps.blobs.commit(upload.temp, row.blobId);
        let inserted = false;
        try {
          inserted = await this.deps.repo.insert(row, notesText);
        } finally {
          if (!inserted) await this.deps.blobs.remove(row.blobId);
          this.deps.blobs.settle(row.blobId);
        }
        if (!inserted) continue;
        return {
          code,
          viewerUrl: viewerUrl(options.baseUrl, code),
          controlUrl: controlUrl(options.baseUrl, code, controlSecret),
          presenterSecret,
          expiresAt: isoSeconds(expiresAt),
          filename: row.filename,
          totalSlides: row.totalSlides,
          bytes: row.bytes,
          sha256: row.sha256,
          allowDownload: false,
          ...(notes ? { notes: { ...notes, warnings: notesWarnings } } : {}),
        };
      }
      throw new AppError("INTERNAL", undefined, { cause: new Error("no free live code after several draws") });
    } finally {
      await Promise.all([upload.temp.discard(), upload.notes?.temp.discard()]);
    }
  }

  /** The row of `code` if it exists (any state); malformed codes are simply unknown. */
  async find(code: string): Promise<LiveSessionRow | null> {
    return CODE_RE.test(code) ? this.deps.repo.get(code) : null;
  }

  /** The open session of `code`: 404 unknown, 410 ended or expired (an expired one is ended now). */
  async open(code: string): Promise<LiveSessionRow> {
    const row = await this.find(code);
    if (!row) throw new AppError("LIVE_NOT_FOUND");
    if (row.endedAt !== null) throw new AppError("LIVE_ENDED");
    if (row.expiresAt <= this.deps.clock()) {
      await this.end(code, "expired");
      throw new AppError("LIVE_ENDED");
    }
    return row;
  }

  /**
   * The notes text of an open talk, for its remote or its presenter (the caller has checked the
   * secret): 404 LIVE_NOTES_NOT_FOUND when the talk came without notes. Judged again after the
   * read: an end that lands meanwhile is a 410, never notes of a talk that is over.
   */
  async notesText(row: LiveSessionRow): Promise<string> {
    if (!row.notes) throw new AppError("LIVE_NOTES_NOT_FOUND");
    const text = await this.deps.repo.notesText(row.code);
    if (text !== null) return text;
    await this.open(row.code);
    throw new AppError("INTERNAL", undefined, { cause: new Error(`the notes text of live talk ${row.code} is missing`) });
  }

  /**
   * The open session, if `secret` is its control secret (the remote's) — or, with `presenter`,
   * its presenter secret: 401 without one, 403 wrong.
   */
  async authorizeControl(code: string, secret: string | null | undefined, presenter: string | null | undefined): Promise<LiveSessionRow> {
    const row = await this.open(code);
    if (presenter) {
      if (!tokenMatches(presenter, row.presenterHash)) throw new AppError("LIVE_SECRET_INVALID");
      return row;
    }
    if (!secret) throw new AppError("LIVE_SECRET_MISSING", "Send the remote's control secret (the part after “#” of the remote link) in the x-control-secret header, or the presenter secret in x-presenter-secret.");
    if (!tokenMatches(secret, row.controlHash)) throw new AppError("LIVE_SECRET_INVALID", "The control secret does not match this live talk; the presenter may have renewed the remote link: open the new one.");
    return row;
  }

  /** The open session, if `secret` is its presenter secret: 401 without one, 403 wrong. */
  async authorizePresenter(code: string, secret: string | null | undefined): Promise<LiveSessionRow> {
    const row = await this.open(code);
    if (!secret) throw new AppError("LIVE_SECRET_MISSING");
    if (!tokenMatches(secret, row.presenterHash)) throw new AppError("LIVE_SECRET_INVALID");
    return row;
  }

  /**
   * End the session (once): the deck's bytes are deleted before anyone is told. False when
   * it had already ended (another instance, or expiry, came first): this instance's sockets
   * of the talk are still told and closed, or they would wait on "paused" for good.
   */
  async end(code: string, reason: LiveEndReason): Promise<boolean> {
    const row = await this.deps.repo.end(code, reason, this.deps.clock());
    if (!row) {
      const existing = await this.find(code);
      if (existing?.endedAt != null) this.deps.events.ended(code, existing.endReason ?? reason, true);
      return false;
    }
    try {
      await this.deps.blobs.remove(row.blobId);
    } finally {
      // Bytes that could not be deleted now belong to no open session: the orphan sweep takes them.
      this.deps.events.ended(code, reason, false);
    }
    return true;
  }

  async rotate(code: string, baseUrl: string): Promise<{ controlUrl: string }> {
    const secret = newControllerToken();
    const generation = await this.deps.repo.rotateControl(code, sha256Hex(secret));
    if (generation === null) throw new AppError("LIVE_ENDED");
    // The hub tells every instance on the talk's bus channel, loaded here or not.
    this.deps.events.rotated(code, generation);
    return { controlUrl: controlUrl(baseUrl, code, secret) };
  }

  /** The presenter of `code` is connected (to this instance) at this moment. */
  async presenterSeen(code: string): Promise<void> {
    await this.deps.repo.touchPresenter(code, this.deps.clock());
  }

  /**
   * End expired sessions (their bytes go), and those whose presenter has been away longer
   * than --live-presenter-grace ("presenter-gone": closed right after going live, or never
   * reconnected after a restart, with no instance holding the talk to run a grace timer);
   * while decks exceed --max-staged-gb (it was lowered, or handoffs filled it), end the
   * oldest talks ("quota"); purge old tombstones and expired grants.
   */
  async sweep(): Promise<{ liveExpired: number; livePresenterGone: number; liveOverQuota: number; livePurged: number }> {
    const now = this.deps.clock();
    let liveExpired = 0;
    for (const code of await this.deps.repo.dueCodes(now, 1000)) if (await this.end(code, "expired")) liveExpired++;
    let livePresenterGone = 0;
    for (const code of await this.deps.repo.presenterGoneCodes(now - this.deps.presenterGraceMs, 1000)) {
      // Connected here (its heartbeat may lag a short grace): not gone; the row learns so now.
      if (this.deps.events.presenterHere(code)) await this.deps.repo.touchPresenter(code, now);
      else if (await this.end(code, "presenter-gone")) livePresenterGone++;
    }
    let liveOverQuota = 0;
    let used = (await this.deps.sessions.stagedBytes()) + (await this.deps.repo.openBytes());
    if (used > this.deps.maxStagedBytes) {
      for (const { code, bytes } of await this.deps.repo.openByAge(1000)) {
        if (used <= this.deps.maxStagedBytes) break;
        if (await this.end(code, "quota")) liveOverQuota++;
        used -= bytes;
      }
    }
    const livePurged = await this.deps.repo.purgeEnded(now - TOMBSTONE_TTL_MS);
    await this.deps.repo.purgeGrants(now);
    return { liveExpired, livePresenterGone, liveOverQuota, livePurged };
  }
}
