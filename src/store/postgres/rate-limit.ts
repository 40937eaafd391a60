/**
 * @module store/postgres/rate-limit
 * The anonymous rate limit shared by every instance: one fixed window per address in
 * `rate_windows`, counted by one upsert (no read-then-write race between instances). Behind
 * a load balancer a client therefore gets `--rate-limit` uploads a minute in total, not that
 * many per instance. Keys remembered for a time (`remembered_keys`: the live talks an address
 * opened) are one upsert too, so what one instance remembers every other knows.
 */
import { RATE_WINDOW_MS, type RateDecision, type RateLimitStore } from "../../core/rate-limit.ts";
import type { PostgresDatabase } from "./db.ts";

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: PostgresDatabase) {}

  async hit(key: string, now: number, limitPerMinute: number): Promise<RateDecision> {
    if (limitPerMinute <= 0) return { allowed: true, retryAfter: 0 };
    await this.db.ready;
    const sql = this.db.sql;
    const stale = now - RATE_WINDOW_MS;
    const [row] = (await sql`
      INSERT INTO rate_windows AS w (key, window_start, hits) VALUES (${key}, ${now}, 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN w.window_start <= ${stale} THEN ${now} ELSE w.window_start END,
        hits         = CASE WHEN w.window_start <= ${stale} THEN 1 ELSE w.hits + 1 END
      RETURNING window_start, hits`) as { window_start: string; hits: number }[];
    const start = Number(row!.window_start);
    return { allowed: row!.hits <= limitPerMinute, retryAfter: Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000)) };
  }

  async remember(key: string, _now: number, until: number): Promise<void> {
    await this.db.ready;
    await this.db.sql`INSERT INTO remembered_keys AS m (key, until) VALUES (${key}, ${until})
                      ON CONFLICT (key) DO UPDATE SET until = GREATEST(m.until, EXCLUDED.until)`;
  }

  async remembers(key: string, now: number): Promise<boolean> {
    await this.db.ready;
    const rows = (await this.db.sql`SELECT 1 FROM remembered_keys WHERE key = ${key} AND until > ${now}`) as unknown[];
    return rows.length > 0;
  }

  async prune(before: number): Promise<number> {
    await this.db.ready;
    const windows = (await this.db.sql`DELETE FROM rate_windows WHERE window_start < ${before} RETURNING key`) as unknown[];
    const memories = (await this.db.sql`DELETE FROM remembered_keys WHERE until < ${before} RETURNING key`) as unknown[];
    return windows.length + memories.length;
  }
}
