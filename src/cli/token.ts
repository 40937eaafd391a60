/**
 * @module cli/token
 * `deckhand token create [--label NAME] | list | revoke ID|LABEL` on the data directory's
 * SQLite database, or on the PostgreSQL database of `--database-url` (DECKHAND_DATABASE_URL).
 */
import { parseArgs } from "node:util";
import { AccessTokens } from "../auth/access-tokens.ts";
import { resolveConfig } from "../base/config.ts";
import { isoSeconds } from "../tools/time.ts";
import { openTokenStore } from "../store/backends.ts";

export const TOKEN_USAGE = `Usage:
  deckhand token create [--label NAME]   print a new access token (shown once)
  deckhand token list                    list tokens (never the secrets)
  deckhand token revoke ID|LABEL         revoke a token
Each takes --data-dir DIR (SQLite in the data dir) or --database-url postgres://…
(DECKHAND_DATA_DIR / DECKHAND_DATABASE_URL), the same as the server they serve.`;

export async function runTokenCommand(argv: string[], out: (s: string) => void = console.log, err: (s: string) => void = console.error): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { label: { type: "string" }, "data-dir": { type: "string" }, "database-url": { type: "string" }, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });
  const [sub, target] = positionals;
  const config = resolveConfig({ "data-dir": values["data-dir"], "database-url": values["database-url"] });
  const store = openTokenStore(config);
  try {
    await store.ready();
    const tokens = new AccessTokens(store.tokens, Date.now);
    switch (sub) {
      case "create": {
        const created = await tokens.create(values.label?.trim() || null);
        if (values.json) out(JSON.stringify(created));
        else {
          out(created.token);
          err(`Created ${created.id}${created.label ? ` (${created.label})` : ""}. This is the only time the token is shown; keep it secret.`);
        }
        return 0;
      }
      case "list": {
        const rows = (await tokens.list()).map((r) => ({
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
        const revoked = await tokens.revoke(target);
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
    await store.close();
  }
}
