/**
 * The storage contract on PostgreSQL + an S3-compatible bucket, each a real server started
 * here (test/helpers/engines.ts): two instances, i.e. two connection pools and two bucket
 * clients with their own spools, on one database and one bucket.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { SQLITE_MIGRATIONS } from "../../src/store/migrations/sqlite.ts";
import { openPostgres, type PostgresDatabase, POSTGRES_SCHEMA_VERSION } from "../../src/store/postgres/db.ts";
import { PostgresLiveBus } from "../../src/store/postgres/live-bus.ts";
import { PostgresRateLimitStore } from "../../src/store/postgres/rate-limit.ts";
import { PostgresSessionRepository } from "../../src/store/postgres/sessions.ts";
import { PostgresSweepLease } from "../../src/store/postgres/sweep-lease.ts";
import { PostgresTokenRepository } from "../../src/store/postgres/tokens.ts";
import { S3BlobStore } from "../../src/store/s3/blobs.ts";
import { OLD_POSTGRES_STEPS } from "../fixtures/old-migrations.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../helpers/engines.ts";
import { describeStorageContract, type Instance } from "./contract.ts";

// The timeout of each test and hook here: ~10× PostgreSQL's and S3's start in beforeAll on a loaded 2-vCPU machine (7.5 s), and
// above the starts' own bounds together (PostgreSQL 60 s, S3 45 s: test/helpers), which yielding to the browser lanes may near.
setDefaultTimeout(180_000);

let pg: PostgresServer;
let s3: S3Server;
let databases = 0;
beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
});
afterAll(async () => {
  await Promise.all([pg?.stop(), s3?.stop()]);
});

describeStorageContract("PostgreSQL + S3", {
  shared: true,
  async open() {
    const url = await pg.createDatabase(`contract${++databases}`);
    const dirs = [mkdtempSync(join(tmpdir(), "deckhand-contract-a-")), mkdtempSync(join(tmpdir(), "deckhand-contract-b-"))];
    const dbs = [openPostgres(url), openPostgres(url)];
    const prefix = `contract${databases}/`;
    const instance = (i: number): Instance => ({
      sessions: new PostgresSessionRepository(dbs[i]!),
      tokens: new PostgresTokenRepository(dbs[i]!),
      // No commit grace: the sweep may judge every object at once (the grace has its own test).
      blobs: new S3BlobStore({ location: { bucket: s3.bucket, prefix }, dataDir: dirs[i]!, client: s3.client, commitGraceMs: 0 }),
      rateLimits: new PostgresRateLimitStore(dbs[i]!),
      sweepLease: new PostgresSweepLease(dbs[i]!),
      liveBus: new PostgresLiveBus(dbs[i]!),
    });
    const a = instance(0);
    const b = instance(1);
    await Promise.all(dbs.map((db) => db.ready));
    return {
      a,
      b,
      close: async () => {
        await Promise.all([a.liveBus.close(), b.liveBus.close()]);
        await Promise.all(dbs.map((db) => db.close()));
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

describe("PostgreSQL migrations", () => {
  test("instances starting together migrate once; the version is recorded; a newer schema is refused", async () => {
    const url = await pg.createDatabase("migrations");
    const dbs = Array.from({ length: 4 }, () => openPostgres(url));
    await Promise.all(dbs.map((db) => db.ready));
    const [row] = (await dbs[0]!.sql`SELECT version FROM deckhand_schema`) as { version: number }[];
    expect(row?.version).toBe(POSTGRES_SCHEMA_VERSION);
    expect(((await dbs[0]!.sql`SELECT count(*)::int AS n FROM deckhand_schema`) as { n: number }[])[0]?.n).toBe(1);
    await dbs[0]!.sql`UPDATE deckhand_schema SET version = ${POSTGRES_SCHEMA_VERSION + 1}`;
    const newer = openPostgres(url);
    expect(newer.ready).rejects.toThrow(/newer deckhand/);
    await Promise.all([...dbs, newer].map((db) => db.close()));
  });
});

describe("PostgreSQL migrations in the one numbering", () => {
  // Tables, columns, indexes, constraints, triggers and functions of the public schema, as text
  // (a function's body white space aside: it keeps its statement's own layout).
  async function schemaOf(db: PostgresDatabase): Promise<unknown[]> {
    return [
      ...(await db.sql`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`),
      ...(await db.sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`),
      ...(await db.sql`SELECT conrelid::regclass::text AS tbl, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
      ...(await db.sql`SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`),
      ...(await db.sql`SELECT proname, trim(regexp_replace(prosrc, '[[:space:]]+', ' ', 'g')) AS src FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`),
    ];
  }
  const versionOf = async (db: PostgresDatabase) => ((await db.sql`SELECT version FROM deckhand_schema`) as { version: number }[]).map((r) => r.version);

  test("a new PostgreSQL database and a new SQLite one reach the same version", async () => {
    const db = openPostgres(await pg.createDatabase("fresh_numbering"));
    await db.ready;
    const dir = mkdtempSync(join(tmpdir(), "deckhand-numbering-"));
    const sqlite = openDatabase(join(dir, "deckhand.db"));
    const sqliteVersion = (sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    expect(await versionOf(db)).toEqual([sqliteVersion]);
    expect(sqliteVersion).toBe(SQLITE_MIGRATIONS.length);
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  test("a database at every old version (its steps verbatim) reaches the last version with a new one's schema, its rows kept", async () => {
    const fresh = openPostgres(await pg.createDatabase("fresh_schema"));
    await fresh.ready;
    const expected = await schemaOf(fresh);
    for (let old = 0; old <= OLD_POSTGRES_STEPS.length; old++) {
      const url = await pg.createDatabase(`old_numbering_${old}`);
      const setup = new Bun.SQL(url, { max: 1 });
      await setup.begin(async (tx) => {
        await tx`CREATE TABLE deckhand_schema (version integer NOT NULL)`;
        for (const step of OLD_POSTGRES_STEPS.slice(0, old)) await tx.unsafe(step);
        if (old > 0) {
          await tx`INSERT INTO deckhand_schema (version) VALUES (${old})`;
          await tx`INSERT INTO access_tokens (id, label, token_hash, created_at) VALUES ('tok', 'kept', 'h', 1)`;
        }
      });
      await setup.close();
      // A step run twice would reject here (a table or column that exists already).
      const db = openPostgres(url);
      await db.ready;
      expect({ old, version: await versionOf(db) }).toEqual({ old, version: [POSTGRES_SCHEMA_VERSION] });
      expect(await schemaOf(db)).toEqual(expected);
      if (old > 0) expect(await db.sql`SELECT label FROM access_tokens WHERE id = 'tok'`).toEqual([{ label: "kept" }]);
      await db.close();
    }
    await fresh.close();
  });

  test("a number no deckhand wrote is refused, and the database is left as it was", async () => {
    const url = await pg.createDatabase("odd_number");
    const setup = new Bun.SQL(url, { max: 1 });
    await setup`CREATE TABLE deckhand_schema (version integer NOT NULL)`;
    await setup`INSERT INTO deckhand_schema (version) VALUES (8)`;
    await setup.close();
    const db = openPostgres(url);
    expect(db.ready).rejects.toThrow(/no deckhand wrote/);
    await db.ready.catch(() => {});
    expect(await versionOf(db)).toEqual([8]);
    expect(await db.sql`SELECT to_regclass('public.sessions') AS t`).toEqual([{ t: null }]);
    await db.close();
  });
});

describe("S3 blobs across instances", () => {
  test("a young object without a row is left alone (another instance may be committing it)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deckhand-grace-"));
    const blobs = new S3BlobStore({ location: { bucket: s3.bucket, prefix: "grace/" }, dataDir: dir, client: s3.client });
    const temp = blobs.createTemp();
    await Bun.write(temp.path, "%PDF-1.7 young");
    await blobs.commit(temp, "youngobject00000000000");
    blobs.settle("youngobject00000000000");
    expect(await blobs.listIds()).toEqual([]);
    const later = new S3BlobStore({ location: { bucket: s3.bucket, prefix: "grace/" }, dataDir: dir, client: s3.client, now: () => Date.now() + 11 * 60_000 });
    expect(await later.listIds()).toEqual(["youngobject00000000000"]);
    await blobs.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
