/**
 * @module store/postgres/live-bus
 * The live-presenting fan-out across instances on PostgreSQL LISTEN/NOTIFY: the
 * socket hub (live/hub) publishes each session's messages here, so viewers connected to
 * another instance receive them too. NOTIFY is transactional and delivered in commit order to
 * every listening connection, so each instance receives each message once, in order; Bun's
 * client keeps one dedicated LISTEN connection and re-subscribes after a reconnect.
 */
import { type LiveBus, type LiveSubscription, MAX_LIVE_MESSAGE_BYTES } from "../../core/live.ts";
import type { PostgresDatabase } from "./db.ts";

/** Channel names are PostgreSQL identifiers: prefixed, and at most 63 bytes. */
function channelName(channel: string): string {
  const name = `deckhand_live_${channel}`;
  if (!/^[A-Za-z0-9_]+$/.test(channel) || Buffer.byteLength(name) > 63) throw new Error(`invalid live channel "${channel}"`);
  return name;
}

export class PostgresLiveBus implements LiveBus {
  private readonly subscriptions = new Set<LiveSubscription>();

  constructor(private readonly db: PostgresDatabase) {}

  async publish(channel: string, message: string): Promise<void> {
    if (Buffer.byteLength(message) > MAX_LIVE_MESSAGE_BYTES) throw new Error(`live message over ${MAX_LIVE_MESSAGE_BYTES} bytes`);
    await this.db.ready;
    await this.db.sql.notify(channelName(channel), message);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<LiveSubscription> {
    await this.db.ready;
    const listening = await this.db.sql.listen(channelName(channel), onMessage);
    let closed = false;
    const subscription: LiveSubscription = {
      close: async () => {
        if (closed) return;
        closed = true;
        this.subscriptions.delete(subscription);
        await listening.unlisten();
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }
}
