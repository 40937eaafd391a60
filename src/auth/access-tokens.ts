/**
 * @module auth/access-tokens
 * Bearer access tokens (`dh_…`): created by `deckhand token create`, shown once, stored as
 * a SHA-256 digest. A valid token extends handoff lifetime to 7 days and passes
 * `--require-auth`.
 */
import { randomBytes } from "../tools/random.ts";
import { AppError } from "../base/errors.ts";
import { sha256Hex } from "../security/secrets.ts";
import type { AccessTokenRepository, AccessTokenRow } from "../core/access-tokens.ts";

export const ACCESS_TOKEN_PREFIX = "dh_";

export interface CreatedToken {
  id: string;
  label: string | null;
  token: string;
}

export interface Caller {
  authenticated: boolean;
  tokenId: string | null;
}

export const ANONYMOUS: Caller = { authenticated: false, tokenId: null };

export class AccessTokens {
  constructor(
    private readonly repo: AccessTokenRepository,
    private readonly clock: () => number,
  ) {}

  async create(label: string | null): Promise<CreatedToken> {
    const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const id = `tok_${randomBytes(6).toString("base64url")}`;
    await this.repo.insert({ id, label, tokenHash: sha256Hex(token), createdAt: this.clock() });
    return { id, label, token };
  }

  list(): Promise<AccessTokenRow[]> {
    return this.repo.list();
  }

  revoke(idOrLabel: string): Promise<AccessTokenRow[]> {
    return this.repo.revoke(idOrLabel, this.clock());
  }

  /**
   * Who is calling, from the `Authorization` header. A token that is given but unknown or
   * revoked is refused (401), never silently downgraded to anonymous.
   */
  async identify(authorization: string | null, requireAuth: boolean): Promise<Caller> {
    if (authorization === null || authorization.trim() === "") {
      if (requireAuth) throw unauthorized("This server requires an access token: send \"Authorization: Bearer dh_…\".", false);
      return ANONYMOUS;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthorized("The Authorization header must be \"Bearer <token>\".", true);
    const row = await this.repo.useByHash(sha256Hex(match[1]!), this.clock());
    if (!row) throw unauthorized("The access token is unknown or revoked; create a new one with `deckhand token create`.", true);
    return { authenticated: true, tokenId: row.id };
  }
}

function unauthorized(detail: string, invalidToken: boolean): AppError {
  // RFC 6750 §3: tell the client which scheme to use, and whether the token was the problem.
  const challenge = invalidToken ? 'Bearer realm="deckhand", error="invalid_token"' : 'Bearer realm="deckhand"';
  return new AppError("UNAUTHORIZED", detail, { headers: { "www-authenticate": challenge } });
}
