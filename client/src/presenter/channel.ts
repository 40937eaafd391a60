/**
 * @module client/presenter/channel
 * The presenter and its audience windows talk over a BroadcastChannel per deck: same
 * origin, same browser, no server, so it works offline. Every message carries the protocol
 * version `v`; a window drops messages of a version it does not know (an old tab left open
 * across an update) instead of misreading them. The state message carries the same
 * AudienceState that live viewers will get over a WebSocket.
 *
 * Version 2 (stage tools): AudienceState gained `ink` and `frozen`, its overlays carry the
 * pointer, the stroke being drawn and the zoom; `overlay` is the small message sent when
 * only the pointer or the live stroke moved. A version-1 window would show a picture without
 * the presenter's ink, so it is not fed.
 *
 * Later additions are new message types only (an older window ignores a type it does not
 * know): `join-card`, `talk` and `talk-reactions`. They stay out of the
 * AudienceState on purpose: that value also goes to the server for live viewers, whose schema
 * is closed, and viewers get the audience's part from the server itself.
 */
import type { LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import type { ProjectedTalk } from "../live/talk/talk-model.ts";
import type { ActionName } from "./actions.ts";
import type { AudienceState } from "./audience.ts";
import type { Overlays } from "./state.ts";

export const PROTOCOL_VERSION = 2;

/** Where the audience window should be: a screen's area (Window Management API). */
export interface Placement {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type ChannelMessage =
  /** Presenter → audience: everything the audience shows. */
  | { v: 2; type: "state"; state: AudienceState }
  /** Presenter → audience: only the overlays moved; `at` is the input event's epoch ms (latency metric). */
  | { v: 2; type: "overlay"; overlays: Overlays; at: number }
  /** Audience → presenter: "I am here, send me the state". */
  | { v: 2; type: "hello" }
  /** Audience → presenter: a clicker or keyboard pressed in the audience window. */
  | { v: 2; type: "command"; action: ActionName; arg?: string }
  /** Audience → presenter: something only the speaker should read (the projector stays clean). */
  | { v: 2; type: "report"; problem: "deck-missing" | "storage-refused" | "deck-unreadable" }
  /** Presenter → audience: move to this screen area and go full screen there (swap). */
  | { v: 2; type: "place"; placement: Placement }
  /** Presenter → audience: the presenter window closed; the audience keeps the last picture. */
  | { v: 2; type: "bye" }
  /** Presenter → audience: show a live talk's join card over the slide (null: take it away). Code and viewer link only. */
  | { v: 2; type: "join-card"; card: { code: string; viewerUrl: string } | null }
  /** Presenter → audience: what a live talk's audience gave that the projector may show (a question, a poll's results, whether reactions float). */
  | { v: 2; type: "talk"; talk: ProjectedTalk }
  /** Presenter → audience: a tick of reactions, sent only while they are on for the projector. */
  | { v: 2; type: "talk-reactions"; counts: LiveReactionCountsT };

export type ChannelMessageBody = ChannelMessage extends infer M ? (M extends { v: 2 } ? Omit<M, "v"> : never) : never;

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
