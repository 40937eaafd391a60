/**
 * @module store/memory-live-bus
 * The live-presenting fan-out within one process (the embedded default: the socket
 * hub publishes each session's messages here). Delivery is asynchronous, as over PostgreSQL, so a subscriber never
 * runs inside the publisher's call stack, and in publication order.
 */
import { type LiveBus, type LiveSubscription, MAX_LIVE_MESSAGE_BYTES } from "../core/live.ts";

export class MemoryLiveBus implements LiveBus {
  private readonly channels = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    // The same limit as PostgreSQL's NOTIFY, so code written against one works on the other.
    if (Buffer.byteLength(message) > MAX_LIVE_MESSAGE_BYTES) throw new Error(`live message over ${MAX_LIVE_MESSAGE_BYTES} bytes`);
    const handlers = [...(this.channels.get(channel) ?? [])];
    queueMicrotask(() => {
      for (const handler of handlers) handler(message);
    });
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<LiveSubscription> {
    const handler = (message: string) => onMessage(message);
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(handler);
    return {
      close: async () => {
        set.delete(handler);
        if (set.size === 0 && this.channels.get(channel) === set) this.channels.delete(channel);
      },
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
