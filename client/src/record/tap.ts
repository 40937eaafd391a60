/**
 * @module client/record/tap
 * The one place where what the projector is sent is also what a recording hears. The
 * presenter's channel to its audience window is wrapped once, where it is opened: every post
 * goes on to the audience window as before, and every picture message (./timeline.ts) is also
 * handed to the listener — the slide and build step, ink and the stroke being drawn, the
 * laser, spotlight, zoom, freeze, black or white, the question or poll shown, reactions
 * while they are on the projector, the join card. Whoever posts (the presenter's changes, the
 * live talk's questions and polls, the join card) reaches the recording by the same road, so
 * nothing the projector shows can be left out of it.
 *
 * The tap also keeps the picture as it stands (by the audience window's own rules), so a
 * recording that starts or resumes mid-talk opens with the picture already on the projector.
 */
import type { Channel, ChannelMessageBody } from "../presenter/channel.ts";
import { applyMessage, EMPTY_PICTURE, isPictureMessage, type Picture, type PictureMessage } from "./timeline.ts";

export interface TappedChannel extends Channel {
  /** The picture the projector shows now (as far as this window has sent it). */
  picture(): Picture;
  /** Messages that draw the current picture from nothing: the start of a recording. */
  snapshot(): PictureMessage[];
}

/** Wrap `channel`: posts go on unchanged, picture messages are also given to `listener`. */
export function tapChannel(channel: Channel, listener: (message: PictureMessage) => void): TappedChannel {
  let picture: Picture = EMPTY_PICTURE;
  return {
    post(message: ChannelMessageBody) {
      channel.post(message);
      if (!isPictureMessage(message)) return;
      picture = applyMessage(picture, message);
      listener(message);
    },
    close: () => channel.close(),
    picture: () => picture,
    snapshot: () => snapshotOf(picture),
  };
}

/** The messages that make `picture` on an empty projector (none before the first state). */
export function snapshotOf(picture: Picture): PictureMessage[] {
  if (!picture.state) return [];
  return [
    { type: "state", state: picture.state },
    { type: "talk", talk: picture.talk },
    { type: "join-card", card: picture.joinCard },
  ];
}
