/**
 * The one numbering of schema changes: both dialects list the same numbered, named files, every
 * file is embedded in the list, and a SQLite database at any version of the old numbering (its
 * steps verbatim: test/fixtures/old-migrations.ts) is brought to the new one without running a
 * step twice, with a new database's schema and its rows kept; nor does a process that opens a
 * new file while another migrates it. (PostgreSQL's
 * upgrade runs against a real server in postgres-s3.test.ts.)
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { POSTGRES_MIGRATIONS, POSTGRES_OLD_VERSIONS } from "../../src/store/migrations/postgres.ts";
import { SQLITE_MIGRATIONS, SQLITE_OLD_VERSIONS } from "../../src/store/migrations/sqlite.ts";
import { hasStatements, ONE_NUMBERING_FROM, renumbered } from "../../src/store/migrations/steps.ts";
import { OLD_SQLITE_STEPS } from "../fixtures/old-migrations.ts";

const dir = join(import.meta.dir, "..", "..", "src", "store", "migrations");
const names = (list: readonly { version: number; name: string }[]) => list.map((m) => `${String(m.version).padStart(4, "0")}-${m.name}.sql`);

describe("one numbering", () => {
  test("SQLite and PostgreSQL list the same numbers and names, one file each, from 1 without gaps", () => {
    expect(names(SQLITE_MIGRATIONS)).toEqual(names(POSTGRES_MIGRATIONS));
    expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(SQLITE_MIGRATIONS.map((_, i) => i + 1));
    // Every file in each directory is in its list (a file added but not imported would never run).
    expect(readdirSync(join(dir, "sqlite")).sort()).toEqual(names(SQLITE_MIGRATIONS));
    expect(readdirSync(join(dir, "postgres")).sort()).toEqual(names(POSTGRES_MIGRATIONS));
  });

  test("every step does something in at least one dialect, and its file says what it is for", () => {
    for (const [i, sqlite] of SQLITE_MIGRATIONS.entries()) {
      const postgres = POSTGRES_MIGRATIONS[i]!;
      expect(hasStatements(sqlite.sql) || hasStatements(postgres.sql)).toBe(true);
      expect(sqlite.sql.startsWith("-- ")).toBe(true);
      expect(postgres.sql.startsWith("-- ")).toBe(true);
    }
  });

  test("the first version of the one numbering is past every old number, and the old ones map in order", () => {
    expect(ONE_NUMBERING_FROM).toBeLessThanOrEqual(SQLITE_MIGRATIONS.length);
    for (const old of [SQLITE_OLD_VERSIONS, POSTGRES_OLD_VERSIONS]) {
      expect(old.length).toBe(8); // the old numberings counted 0…7
      expect(old[0]).toBe(0);
      expect(Math.max(...old)).toBeLessThanOrEqual(SQLITE_MIGRATIONS.length);
      for (let i = 1; i < old.length; i++) expect(old[i]!).toBeGreaterThan(old[i - 1]!);
    }
    expect(renumbered(7, SQLITE_OLD_VERSIONS)).toBe(8);
    expect(renumbered(7, POSTGRES_OLD_VERSIONS)).toBe(9);
    expect(renumbered(ONE_NUMBERING_FROM, SQLITE_OLD_VERSIONS)).toBe(ONE_NUMBERING_FROM);
    expect(() => renumbered(8, SQLITE_OLD_VERSIONS)).toThrow(/no deckhand wrote/);
  });

  test("a comment-only file is a step with nothing to run; one with a statement is not", () => {
    expect(hasStatements("-- nothing here\n-- at all\n")).toBe(false);
    expect(hasStatements("-- a table\nCREATE TABLE t (x INTEGER);\n")).toBe(true);
  });
});

describe("SQLite", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const path = () => {
    const d = mkdtempSync(join(tmpdir(), "deckhand-migrations-"));
    dirs.push(d);
    return join(d, "deckhand.db");
  };
  // The schema as SQLite keeps it, white space aside (it keeps each statement's own layout).
  const schemaOf = (db: Database) =>
    (db.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[]).map((r) => ({
      ...r,
      sql: r.sql?.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")"),
    }));
  const versionOf = (db: Database) => (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;

  test("a new database reaches the last version, skipping the steps SQLite has nothing for", () => {
    const db = openDatabase(path());
    expect(versionOf(db)).toBe(SQLITE_MIGRATIONS.length);
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(["access_tokens", "live_grants", "live_sessions", "quota", "sessions"]);
    db.close();
  });

  // A database an old deckhand left at `old`: its first `old` steps run, and that number kept.
  function oldDatabase(file: string, old: number): void {
    const db = new Database(file, { create: true, strict: true });
    for (const step of OLD_SQLITE_STEPS.slice(0, old)) db.run(step);
    db.run(`PRAGMA user_version = ${old}`);
    if (old >= 1) db.run("INSERT INTO access_tokens (id, label, token_hash, created_at) VALUES ('tok', 'kept', 'h', 1)");
    db.close();
  }

  for (let old = 0; old <= OLD_SQLITE_STEPS.length; old++) {
    test(`a database at old version ${old} reaches the last version with a new one's schema, its rows kept`, () => {
      const fresh = openDatabase(path());
      const file = path();
      oldDatabase(file, old);
      // A step run twice would fail here (a table or column that exists already).
      const db = openDatabase(file);
      expect(versionOf(db)).toBe(SQLITE_MIGRATIONS.length);
      expect(schemaOf(db)).toEqual(schemaOf(fresh));
      if (old >= 1) expect(db.query("SELECT label FROM access_tokens WHERE id = 'tok'").get()).toEqual({ label: "kept" });
      db.close();
      // And once upgraded, it opens again unchanged.
      const again = openDatabase(file);
      expect(versionOf(again)).toBe(SQLITE_MIGRATIONS.length);
      again.close();
      fresh.close();
    });
  }

  test("a database from a newer deckhand, or at a number no deckhand wrote, is refused and left as it was", () => {
    const newer = path();
    const db = openDatabase(newer);
    db.run(`PRAGMA user_version = ${SQLITE_MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openDatabase(newer)).toThrow(/newer deckhand/);
    const odd = path();
    const raw = new Database(odd, { create: true });
    raw.run("PRAGMA user_version = 8");
    raw.close();
    expect(() => openDatabase(odd)).toThrow(/no deckhand wrote/);
    const check = new Database(odd);
    expect(versionOf(check)).toBe(8);
    check.close();
  });

  test("two processes opening a new file at once: the one that waited for the lock finds it migrated and runs no step again", async () => {
    const file = path();
    // Another process (a second server, `deckhand token …`) migrates the new file and holds its
    // write lock a second before committing; this one opens the file meanwhile, reading version 0.
    const other = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite");
         const { SQLITE_MIGRATIONS } = require(${JSON.stringify(join(dir, "sqlite.ts"))});
         const { hasStatements } = require(${JSON.stringify(join(dir, "steps.ts"))});
         const db = new Database(${JSON.stringify(file)}, { create: true });
         db.run("PRAGMA journal_mode = WAL");
         db.run("BEGIN IMMEDIATE");
         for (const step of SQLITE_MIGRATIONS) if (hasStatements(step.sql)) db.run(step.sql);
         db.run("PRAGMA user_version = " + SQLITE_MIGRATIONS.length);
         console.log("locked");
         await Bun.sleep(1000);
         db.run("COMMIT");`,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    const reader = other.stdout.getReader();
    let said = "";
    while (!said.includes("locked")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the other process ended before it held the lock: ${await new Response(other.stderr).text()}`);
      said += new TextDecoder().decode(value);
    }
    // Before the fix this threw "table … already exists": the steps ran again after the wait.
    const db = openDatabase(file);
    expect(await other.exited).toBe(0);
    expect(versionOf(db)).toBe(SQLITE_MIGRATIONS.length);
    const fresh = openDatabase(path());
    expect(schemaOf(db)).toEqual(schemaOf(fresh));
    db.close();
    fresh.close();
  });
});
