/**
 * @module client/export/replay
 * The picture at a run of increasing times, replayed once: `pictureAt` (client/record/timeline)
 * applies every event from the start for each time asked; an export asks for thousands of
 * times in order, so this cursor applies each event once, by the same rule (`applyMessage`).
 */
import { applyMessage, EMPTY_PICTURE, type Picture, type TimelineEvent } from "../record/timeline.ts";

export class Replay {
  private next = 0;
  private picture: Picture = EMPTY_PICTURE;

  constructor(private readonly events: readonly TimelineEvent[]) {}

  /** The picture at `t` (every event at or before it applied); `t` never goes back. */
  at(t: number): Picture {
    while (this.next < this.events.length && this.events[this.next]!.t <= t) this.picture = applyMessage(this.picture, this.events[this.next++]!.m);
    return this.picture;
  }
}
