/**
 * @module client/export/replay
 * The picture at a run of increasing times, replayed once: `pictureAt` (client/record/timeline)
 * applies every event from the start for each time asked; an export asks for thousands of
 * times in order, so this cursor applies each event once, by the same rule (`applyMessage`).
 * It walks any iterable of events (an array, or a stored recording expanded piece by piece as
 * it goes: client/export/stored-track), holding only the next event and the picture.
 */
import { applyMessage, EMPTY_PICTURE, type Picture, type TimelineEvent } from "../record/timeline.ts";

export class Replay {
  private readonly events: Iterator<TimelineEvent>;
  private pending: TimelineEvent | undefined;
  private picture: Picture = EMPTY_PICTURE;

  constructor(events: Iterable<TimelineEvent>) {
    this.events = events[Symbol.iterator]();
    this.pending = this.take();
  }

  private take(): TimelineEvent | undefined {
    const next = this.events.next();
    return next.done ? undefined : next.value;
  }

  /** The time of the next event not yet applied; undefined once all are. */
  get next(): number | undefined {
    return this.pending?.t;
  }

  /** The picture at `t` (every event at or before it applied); `t` never goes back. */
  at(t: number): Picture {
    while (this.pending && this.pending.t <= t) {
      this.picture = applyMessage(this.picture, this.pending.m);
      this.pending = this.take();
    }
    return this.picture;
  }
}
