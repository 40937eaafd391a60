/**
 * @module store/migrations/postgres
 * PostgreSQL's schema changes in the one numbering (store/migrations/steps), embedded in the
 * binary as text.
 */
import p0001 from "./postgres/0001-sessions-and-tokens.sql" with { type: "text" };
import p0002 from "./postgres/0002-staged-quota.sql" with { type: "text" };
import p0003 from "./postgres/0003-rate-windows.sql" with { type: "text" };
import p0004 from "./postgres/0004-live-sessions.sql" with { type: "text" };
import p0005 from "./postgres/0005-presenter-seen.sql" with { type: "text" };
import p0006 from "./postgres/0006-staged-notes.sql" with { type: "text" };
import p0007 from "./postgres/0007-live-audience.sql" with { type: "text" };
import p0008 from "./postgres/0008-live-notes.sql" with { type: "text" };
import p0009 from "./postgres/0009-remembered-keys.sql" with { type: "text" };
import { migrations } from "./steps.ts";

export const POSTGRES_MIGRATIONS = migrations([
  ["0001-sessions-and-tokens.sql", p0001],
  ["0002-staged-quota.sql", p0002],
  ["0003-rate-windows.sql", p0003],
  ["0004-live-sessions.sql", p0004],
  ["0005-presenter-seen.sql", p0005],
  ["0006-staged-notes.sql", p0006],
  ["0007-live-audience.sql", p0007],
  ["0008-live-notes.sql", p0008],
  ["0009-remembered-keys.sql", p0009],
]);

/**
 * PostgreSQL's old `deckhand_schema.version` (index) → its version in the one numbering. The
 * old list was 1 sessions-and-tokens + staged-quota + rate-windows (one step), 2 live-sessions,
 * 3 presenter-seen, 4 staged-notes, 5 live-audience, 6 live-notes, 7 remembered-keys.
 */
export const POSTGRES_OLD_VERSIONS: readonly number[] = [0, 3, 4, 5, 6, 7, 8, 9];
