import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { runTokenCommand } from "../../src/cli/token.ts";
import { createHash } from "node:crypto";
import { startPostgres } from "../helpers/engines.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.4 s).
setDefaultTimeout(45_000);

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTokenCommand([...args, "--data-dir", dir], (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("deckhand token", () => {
  test("create prints the token once and stores only its hash; list never shows it; revoke by label", async () => {
    dir = mkdtempSync(join(tmpdir(), "deckhand-token-"));
    const created = await run("create", "--label", "laptop");
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^dh_[A-Za-z0-9_-]{43}$/);
    expect(created.err).toContain("only time the token is shown");
    const db = new Database(join(dir, "deckhand.db"), { readonly: true });
    const rows = db.query("SELECT * FROM access_tokens").all() as Array<Record<string, unknown>>;
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash("sha256").update(created.out).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(created.out);

    const listed = await run("list");
    expect(listed.out).toContain("laptop");
    expect(listed.out).toContain("never used");
    expect(listed.out).not.toContain(created.out);

    const revoked = await run("revoke", "laptop");
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain("Revoked tok_");
    expect((await run("list")).out).toContain("revoked");
    expect((await run("revoke", "laptop")).code).toBe(1);
  });

  test("usage errors exit 2", async () => {
    dir = mkdtempSync(join(tmpdir(), "deckhand-token-"));
    expect((await run("frobnicate")).code).toBe(2);
    expect((await run("revoke")).code).toBe(2);
  });
});

describe("deckhand token --database-url (PostgreSQL)", () => {
  test("create, list and revoke work against PostgreSQL the same way; only the hash is stored there", async () => {
    dir = mkdtempSync(join(tmpdir(), "deckhand-token-"));
    const pg = await startPostgres();
    try {
      const url = await pg.createDatabase("tokens");
      const pgRun = async (...args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runTokenCommand([...args, "--database-url", url, "--data-dir", dir], (s) => out.push(s), (s) => err.push(s));
        return { code, out: out.join("\n"), err: err.join("\n") };
      };
      const created = await pgRun("create", "--label", "ci");
      expect(created.code).toBe(0);
      expect(created.out).toMatch(/^dh_[A-Za-z0-9_-]{43}$/);
      const sql = new Bun.SQL(url, { max: 1 });
      const rows = (await sql`SELECT label, token_hash FROM access_tokens`) as { label: string; token_hash: string }[];
      await sql.close();
      expect([...rows]).toEqual([{ label: "ci", token_hash: createHash("sha256").update(created.out).digest("hex") }]);
      expect((await pgRun("list")).out).toContain("ci");
      expect((await pgRun("revoke", "ci")).code).toBe(0);
      expect((await pgRun("list")).out).toContain("revoked");
      // The data dir was never touched: the tokens live in PostgreSQL only.
      expect(existsSync(join(dir, "deckhand.db"))).toBe(false);
    } finally {
      await pg.stop();
    }
  });
});
