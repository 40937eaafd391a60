/**
 * @module client/record/timeline-cursor
 * Playing a timeline back: the picture at the player's time, moved on event by event while it
 * plays (cheap: only the events since the last frame), rebuilt from the start after a seek.
 * Reactions are no lasting picture — they float up and go — so the ticks crossed while
 * playing are handed out to be floated; a seek floats none. Pure.
 */
import type { LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import { applyMessage, EMPTY_PICTURE, eventsUpTo, pictureAt, type Picture, type TimelineEvent } from "./timeline.ts";

/** Playing on further than this in one step counts as a seek (a frame is ~16 ms; a stall a few hundred). */
const JUMP_MS = 2000;

export interface CursorStep {
  picture: Picture;
  /** Reaction ticks crossed since the last step (none after a jump). */
  reactions: LiveReactionCountsT[];
  /** The time jumped (a seek, backwards or far ahead): the picture was rebuilt. */
  jumped: boolean;
}

export class TimelineCursor {
  private index = 0;
  private time = -Infinity;
  private picture: Picture = EMPTY_PICTURE;

  constructor(private readonly events: readonly TimelineEvent[]) {}

  /** The picture at `t` (ms on the recording's clock). */
  moveTo(t: number): CursorStep {
    const jumped = t < this.time || t - this.time > JUMP_MS;
    const end = eventsUpTo(this.events, t);
    const reactions: LiveReactionCountsT[] = [];
    if (jumped) {
      this.picture = pictureAt(this.events, t);
    } else {
      for (let i = this.index; i < end; i++) {
        const m = this.events[i]!.m;
        if (m.type === "talk-reactions") reactions.push(m.counts);
        this.picture = applyMessage(this.picture, m);
      }
    }
    this.index = end;
    this.time = t;
    return { picture: this.picture, reactions, jumped };
  }
}
