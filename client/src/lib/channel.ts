/**
 * @module client/lib/channel
 * The presenter and its audience windows talk over a BroadcastChannel per deck: same
 * origin, same browser, no server, so it works offline.
 */

export interface SlideState {
  slide: number;
  blank: boolean;
  /** Media on the current slide: id → playing? and position in seconds. */
  media: Record<string, { playing: boolean; time: number }>;
}

export type ChannelMessage =
  | { type: "state"; state: SlideState }
  | { type: "hello" }
  /** An audience window forwards a clicker's keys to the presenter. */
  | { type: "command"; action: "next" | "prev" | "blank" }
  | { type: "bye" };

export function channelName(deckId: string): string {
  return `deckhand:deck:${deckId}`;
}

export function openChannel(deckId: string, onMessage: (message: ChannelMessage) => void): { post(message: ChannelMessage): void; close(): void } {
  const channel = new BroadcastChannel(channelName(deckId));
  channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
    if (event.data && typeof event.data === "object" && "type" in event.data) onMessage(event.data);
  };
  return {
    post: (message) => channel.postMessage(message),
    close: () => channel.close(),
  };
}
