/**
 * @module client/lib/frame-task
 * One piece of drawing done at most once per animation frame, however often it is asked for:
 * a crowd's messages arrive by the hundred a second, and each only asks; the frame draws what
 * they changed, once. A page that is hidden gets no frames, so a timer runs the task too when no
 * frame came in time (the browser slows such timers to about once a second): the page has
 * settled when it is shown again, and what the task keeps (a talk's record) is not held back.
 */

/** Longest wait for a frame before the timer runs the task instead (a hidden page has no frames). */
export const FRAME_FALLBACK_MS = 250;

/** Where frames and timers come from (the browser's; a test's by hand). */
export interface FrameClock {
  frame(run: () => void): () => void;
  later(run: () => void, ms: number): () => void;
}

export const browserFrames: FrameClock = {
  frame(run) {
    const id = requestAnimationFrame(() => run());
    return () => cancelAnimationFrame(id);
  },
  later(run, ms) {
    const id = setTimeout(run, ms);
    return () => clearTimeout(id);
  },
};

export class FrameTask {
  private cancels: (() => void)[] = [];
  private delayed: (() => void) | null = null;

  constructor(
    private readonly task: () => void,
    private readonly clock: FrameClock = browserFrames,
  ) {}

  /** Whether the task waits for its frame. */
  get pending(): boolean {
    return this.cancels.length > 0;
  }

  /** Run the task at the next frame (or the fallback timer's turn); asking again before then changes nothing. */
  request(): void {
    if (this.pending) return;
    this.cancels = [this.clock.frame(() => this.run()), this.clock.later(() => this.run(), FRAME_FALLBACK_MS)];
  }

  /** Run it now (a person's own click answers at once), and not again at the frame. */
  now(): void {
    this.run();
  }

  /** Run it at the first frame after `ms` (one such wait at a time: a later ask while one waits changes nothing). */
  requestIn(ms: number): void {
    if (this.delayed) return;
    this.delayed = this.clock.later(() => {
      this.delayed = null;
      this.request();
    }, ms);
  }

  private run(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels = [];
    this.task();
  }
}

/** Items kept until the next frame (or `now`), then handed together to `run`: a frame's worth of a socket's messages. */
export class FrameQueue<T> {
  private items: T[] = [];
  private readonly task: FrameTask;

  constructor(run: (items: T[]) => void, clock?: FrameClock) {
    this.task = new FrameTask(() => {
      const items = this.items;
      this.items = [];
      run(items);
    }, clock);
  }

  /** Keep `item` for the next frame (and ask for it). */
  push(item: T): void {
    this.items.push(item);
    this.task.request();
  }

  /** A run at the next frame, with whatever is kept by then (perhaps nothing). */
  request(): void {
    this.task.request();
  }

  /** Run now with what is kept (a person's own click answers at once). */
  now(): void {
    this.task.now();
  }

  /** A run at the first frame after `ms` (one such wait at a time). */
  requestIn(ms: number): void {
    this.task.requestIn(ms);
  }

  /** Forget what is kept (a new talk). */
  clear(): void {
    this.items = [];
  }
}
