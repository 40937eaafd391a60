/**
 * @module store/migrations/sqlite
 * SQLite's schema changes in the one numbering (store/migrations/steps), embedded in the
 * binary as text.
 */
import s0001 from "./sqlite/0001-sessions-and-tokens.sql" with { type: "text" };
import s0002 from "./sqlite/0002-staged-quota.sql" with { type: "text" };
import s0003 from "./sqlite/0003-rate-windows.sql" with { type: "text" };
import s0004 from "./sqlite/0004-live-sessions.sql" with { type: "text" };
import s0005 from "./sqlite/0005-presenter-seen.sql" with { type: "text" };
import s0006 from "./sqlite/0006-staged-notes.sql" with { type: "text" };
import s0007 from "./sqlite/0007-live-audience.sql" with { type: "text" };
import s0008 from "./sqlite/0008-live-notes.sql" with { type: "text" };
import s0009 from "./sqlite/0009-remembered-keys.sql" with { type: "text" };
import { migrations } from "./steps.ts";

export const SQLITE_MIGRATIONS = migrations([
  ["0001-sessions-and-tokens.sql", s0001],
  ["0002-staged-quota.sql", s0002],
  ["0003-rate-windows.sql", s0003],
  ["0004-live-sessions.sql", s0004],
  ["0005-presenter-seen.sql", s0005],
  ["0006-staged-notes.sql", s0006],
  ["0007-live-audience.sql", s0007],
  ["0008-live-notes.sql", s0008],
  ["0009-remembered-keys.sql", s0009],
]);

/**
 * SQLite's old `user_version` (index) → its version in the one numbering. The old list was
 * 1 sessions-and-tokens, 2 staged-quota, 3 live-sessions, 4 presenter-seen, 5 staged-notes,
 * 6 live-audience, 7 live-notes; rate-windows (3) and remembered-keys (9) had no SQLite step.
 */
export const SQLITE_OLD_VERSIONS: readonly number[] = [0, 1, 2, 4, 5, 6, 7, 8];
