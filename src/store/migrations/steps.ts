/**
 * @module store/migrations/steps
 * The one numbering of schema changes that SQLite (`store/db`) and PostgreSQL
 * (`store/postgres/db`) share: each change is a numbered file, `NNNN-name.sql`, in each
 * dialect's directory beside this module, with the same number and name in both. A change one
 * dialect does not need is a file of comments only there, which runs nothing, so both stores
 * reach the same version. Files are only ever added at the end; never edit one that has
 * shipped. How to add one: docs/development/architecture.md.
 */

/** One schema change: its number, its name, and the dialect's SQL (possibly only comments). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The list of a dialect's files, in order; their numbers must run 1, 2, 3, … (checked here). */
export function migrations(files: readonly (readonly [file: string, sql: string])[]): readonly Migration[] {
  return files.map(([file, sql], i) => {
    const match = /^(\d{4})-([a-z0-9-]+)\.sql$/.exec(file);
    if (!match || Number(match[1]) !== i + 1) throw new Error(`Migration ${file} is out of order: expected number ${i + 1}.`);
    return { version: i + 1, name: match[2]!, sql };
  });
}

/** Whether a step has anything to run: a file of comments only is a step this dialect skips. */
export function hasStatements(sql: string): boolean {
  return sql.replace(/--[^\n]*/g, "").trim() !== "";
}

/**
 * The first version of the one numbering. Before it each dialect counted its own steps (SQLite
 * to 7, PostgreSQL to 7, numbered differently); every database the one numbering writes is at
 * this version or later, since its first release had this many steps and a start applies all
 * pending steps in one transaction. So a stored version below it can only be an old number.
 */
export const ONE_NUMBERING_FROM = 9;

/**
 * The version in the one numbering of a stored version: `oldToNew[old]` for a version the old
 * numbering wrote (0, an empty database, stays 0), the stored version itself from
 * `ONE_NUMBERING_FROM` on.
 */
export function renumbered(stored: number, oldToNew: readonly number[]): number {
  if (stored >= ONE_NUMBERING_FROM) return stored;
  const version = oldToNew[stored];
  if (version === undefined) throw new Error(`The database records schema ${stored}, which no deckhand wrote; restore it from a backup.`);
  return version;
}
