/**
 * @module cli/token
 * `deckhand token create [--label NAME] | list | revoke ID|LABEL` on the data directory.
 */
import { parseArgs } from "node:util";
import { AccessTokens } from "../auth/access-tokens.ts";
import { resolveConfig } from "../config.ts";
import { isoSeconds } from "../handoff/service.ts";
import { openDataDir } from "../runtime.ts";
import { TokenRepository } from "../store/tokens.ts";

export const TOKEN_USAGE = `Usage:
  deckhand token create [--label NAME] [--data-dir DIR]   print a new access token (shown once)
  deckhand token list [--data-dir DIR]                    list tokens (never the secrets)
  deckhand token revoke ID|LABEL [--data-dir DIR]         revoke a token`;

export function runTokenCommand(argv: string[], out: (s: string) => void = console.log, err: (s: string) => void = console.error): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { label: { type: "string" }, "data-dir": { type: "string" }, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });
  const [sub, target] = positionals;
  const config = resolveConfig({ "data-dir": values["data-dir"] });
  const db = openDataDir(config.dataDir);
  try {
    const tokens = new AccessTokens(new TokenRepository(db), Date.now);
    switch (sub) {
      case "create": {
        const created = tokens.create(values.label?.trim() || null);
        if (values.json) out(JSON.stringify(created));
        else {
          out(created.token);
          err(`Created ${created.id}${created.label ? ` (${created.label})` : ""}. This is the only time the token is shown; keep it secret.`);
        }
        return 0;
      }
      case "list": {
        const rows = tokens.list().map((r) => ({
          id: r.id,
          label: r.label,
          createdAt: isoSeconds(r.createdAt),
          lastUsedAt: r.lastUsedAt === null ? null : isoSeconds(r.lastUsedAt),
          revokedAt: r.revokedAt === null ? null : isoSeconds(r.revokedAt),
        }));
        if (values.json) out(JSON.stringify(rows));
        else if (rows.length === 0) out("No access tokens. Create one with `deckhand token create --label NAME`.");
        else for (const r of rows) out(`${r.id}\t${r.label ?? "-"}\tcreated ${r.createdAt}\t${r.revokedAt ? `revoked ${r.revokedAt}` : r.lastUsedAt ? `last used ${r.lastUsedAt}` : "never used"}`);
        return 0;
      }
      case "revoke": {
        if (!target) {
          err("Say which token to revoke: deckhand token revoke ID|LABEL");
          return 2;
        }
        const revoked = tokens.revoke(target);
        if (revoked.length === 0) {
          err(`No active token has the id or label "${target}". See \`deckhand token list\`.`);
          return 1;
        }
        for (const r of revoked) out(`Revoked ${r.id}${r.label ? ` (${r.label})` : ""}.`);
        return 0;
      }
      default:
        err(TOKEN_USAGE);
        return 2;
    }
  } finally {
    db.close();
  }
}
