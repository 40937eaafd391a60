/**
 * @module store/postgres/sweep-lease
 * One sweeper at a time across instances: a session-level advisory lock held on a reserved
 * connection for the length of a sweep. An instance that does not get it skips that sweep;
 * an instance that dies mid-sweep loses its connection and with it the lock.
 */
import type { SweepLease } from "../../core/coordination.ts";
import { type PostgresDatabase, SWEEP_LOCK_KEY } from "./db.ts";

export class PostgresSweepLease implements SweepLease {
  constructor(private readonly db: PostgresDatabase) {}

  async runExclusive<T>(work: () => Promise<T>): Promise<T | null> {
    await this.db.ready;
    const connection = await this.db.sql.reserve();
    try {
      const [row] = (await connection`SELECT pg_try_advisory_lock(${SWEEP_LOCK_KEY}) AS got`) as { got: boolean }[];
      if (!row?.got) return null;
      try {
        return await work();
      } finally {
        await connection`SELECT pg_advisory_unlock(${SWEEP_LOCK_KEY})`;
      }
    } finally {
      connection.release();
    }
  }
}
