/**
 * @module client/lib/frame-task
 * One piece of drawing done at most once per animation frame, however often it is asked for:
 * a crowd's messages arrive by the hundred a second, and each only asks; the frame draws what
 * they changed, once. A timer runs the task too when no frame came in time. A hidden page gets
 * no frames and its timers are slowed (to once a second, and to once a minute after a few
 * minutes in Chromium; WebKit slows them more and more): there the task runs at the next turn
 * of the event loop (a MessageChannel message, never slowed) — a presenter window hidden
 * behind the projector's still passes a question on to it at once.
 */

/** Longest wait for a frame before the timer runs the task instead (a hidden page has no frames). */
export const FRAME_FALLBACK_MS = 250;

/** Where frames and timers come from (the browser's; a test's by hand). */
export interface FrameClock {
  frame(run: () => void): () => void;
  later(run: () => void, ms: number): () => void;
  /** Whether the page is hidden now (no frames, slowed timers). */
  hidden?(): boolean;
  /** Run at the next turn of the event loop. */
  soon?(run: () => void): () => void;
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
  hidden: () => document.visibilityState === "hidden",
  soon(run) {
    const channel = new MessageChannel();
    let live = true;
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (live) run();
    };
    channel.port2.postMessage(null);
    return () => {
      live = false;
      channel.port1.close();
    };
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
    if (this.clock.hidden?.() && this.clock.soon) this.cancels = [this.clock.soon(() => this.run())];
    else this.cancels = [this.clock.frame(() => this.run()), this.clock.later(() => this.run(), FRAME_FALLBACK_MS)];
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
