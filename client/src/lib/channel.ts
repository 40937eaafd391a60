/**
 * @module client/lib/channel
 * The presenter and its audience windows talk over a BroadcastChannel per deck: same
 * origin, same browser, no server, so it works offline. Every message carries the protocol
 * version `v`; a window drops messages of a version it does not know (an old tab left open
 * across an update) instead of misreading them. The state message carries the same
 * AudienceState that live viewers will get over a WebSocket.
 */
import type { ActionName } from "../presenter/actions.ts";
import type { AudienceState } from "../presenter/audience.ts";

export const PROTOCOL_VERSION = 1;

export type ChannelMessage =
  /** Presenter → audience: everything the audience shows. */
  | { v: 1; type: "state"; state: AudienceState }
  /** Audience → presenter: "I am here, send me the state". */
  | { v: 1; type: "hello" }
  /** Audience → presenter: a clicker or keyboard pressed in the audience window. */
  | { v: 1; type: "command"; action: ActionName; arg?: string }
  /** Audience → presenter: something only the speaker should read (the projector stays clean). */
  | { v: 1; type: "report"; problem: "deck-missing" | "storage-refused" | "deck-unreadable" }
  /** Presenter → audience: the presenter window closed; the audience keeps the last picture. */
  | { v: 1; type: "bye" };

export type ChannelMessageBody = ChannelMessage extends infer M ? (M extends { v: 1 } ? Omit<M, "v"> : never) : never;

export function channelName(deckId: string): string {
  return `deckhand:deck:${deckId}`;
}

function isMessage(data: unknown): data is ChannelMessage {
  return !!data && typeof data === "object" && (data as { v?: unknown }).v === PROTOCOL_VERSION && typeof (data as { type?: unknown }).type === "string";
}

export interface Channel {
  post(message: ChannelMessageBody): void;
  close(): void;
}

export function openChannel(deckId: string, onMessage: (message: ChannelMessage) => void): Channel {
  const channel = new BroadcastChannel(channelName(deckId));
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (isMessage(event.data)) onMessage(event.data);
  };
  return {
    post: (message) => channel.postMessage({ ...message, v: PROTOCOL_VERSION }),
    close: () => channel.close(),
  };
}
