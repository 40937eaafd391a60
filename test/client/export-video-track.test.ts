/**
 * The export's video side (client/export/video-track) keeps the encoder's queue short without
 * ever waiting for good: WebCodecs may update `encodeQueueSize` a task after it fires `dequeue`
 * (w3c/webcodecs#724), so the last event of a run can come while the size still reads high;
 * and an encoder that fails sends no more events. A fake VideoEncoder plays each case.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { WebmMuxer } from "../../client/src/export/mux.ts";
import type { VideoChoice } from "../../client/src/export/video-codec.ts";
import { VideoTrack } from "../../client/src/export/video-track.ts";

/** How a fake encoder finishes each frame it was given. */
type Finish = "event-then-size" | "silent" | "never";

class FakeEncoder extends EventTarget {
  static finish: Finish = "event-then-size";
  static last: FakeEncoder | null = null;
  encodeQueueSize = 0;
  encoded = 0;
  state = "unconfigured";
  constructor(readonly init: { output: (...args: unknown[]) => void; error: (error: unknown) => void }) {
    super();
    FakeEncoder.last = this;
  }
  configure(): void {
    this.state = "configured";
  }
  encode(): void {
    if (this.state !== "configured") throw new Error("encode() on an encoder that is " + this.state);
    this.encoded++;
    this.encodeQueueSize++;
    if (FakeEncoder.finish === "never") return;
    setTimeout(() => {
      if (FakeEncoder.finish === "event-then-size") {
        // The order w3c/webcodecs#724 allows: the event first, the size a task later.
        this.dispatchEvent(new Event("dequeue"));
        setTimeout(() => this.encodeQueueSize--, 0);
      } else {
        this.encodeQueueSize--;
      }
    }, 5);
  }
  /** The encoder fails: it is closed and says so once. */
  fail(error: Error): void {
    this.state = "closed";
    this.init.error(error);
  }
  async flush(): Promise<void> {}
  close(): void {
    this.state = "closed";
  }
}

class FakeFrame {
  closed = false;
  constructor(readonly source: unknown, readonly init: unknown) {}
  close(): void {
    this.closed = true;
  }
}

const globals = globalThis as unknown as Record<string, unknown>;
const saved = { VideoEncoder: globals.VideoEncoder, VideoFrame: globals.VideoFrame };
beforeEach(() => {
  globals.VideoEncoder = FakeEncoder;
  globals.VideoFrame = FakeFrame;
  FakeEncoder.last = null;
});
afterEach(() => {
  globals.VideoEncoder = saved.VideoEncoder;
  globals.VideoFrame = saved.VideoFrame;
});

const choice = { codec: "vp9", config: { codec: "vp09.00.10.08", width: 1920, height: 1080 }, frameOptions: (key: boolean) => ({ keyFrame: key }) } as unknown as VideoChoice;
const muxer = { addVideo: async () => {} } as unknown as WebmMuxer;
const canvas = {} as OffscreenCanvas;

/** `promise`, or a failure naming `what` after 3 s (within Bun's 5 s for a test): a wait that never ends fails the test instead of hanging it. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after 3 s`)), 3_000)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function addFrames(track: VideoTrack, count: number): Promise<void> {
  for (let t = 0; t < count; t++) await track.add({ t: t * 100, key: t === 0, repeat: t % 2 === 1 }, canvas);
}

describe("the export's video encoder queue", () => {
  test("a queue that shrinks a task after its dequeue event does not hold the export: every frame is encoded", async () => {
    FakeEncoder.finish = "event-then-size";
    const track = new VideoTrack(choice, muxer, new Map());
    await within(addFrames(track, 12), "twelve frames");
    await within(track.finish(), "the finish");
    expect(FakeEncoder.last!.encoded).toBe(12);
    expect([track.frames, track.keyframes, track.repeats]).toEqual([12, 1, 6]);
    track.close();
  });

  test("a queue that shrinks with no dequeue event at all is seen too", async () => {
    FakeEncoder.finish = "silent";
    const track = new VideoTrack(choice, muxer, new Map());
    await within(addFrames(track, 6), "six frames");
    expect(FakeEncoder.last!.encoded).toBe(6);
    track.close();
  });

  test("the encoder's error ends a frame's wait for the queue with that error, and nothing more is encoded", async () => {
    FakeEncoder.finish = "never";
    const track = new VideoTrack(choice, muxer, new Map());
    // Two frames fill the queue past its bound of one: the third waits.
    await track.add({ t: 0, key: true, repeat: false }, canvas);
    await track.add({ t: 100, key: false, repeat: false }, canvas);
    const third = track.add({ t: 200, key: false, repeat: true }, canvas);
    await Bun.sleep(60);
    FakeEncoder.last!.fail(new Error("EncodingError: the encoder failed"));
    await expect(within(third, "the waiting frame")).rejects.toThrow("EncodingError: the encoder failed");
    expect(FakeEncoder.last!.encoded).toBe(2);
    await expect(track.add({ t: 300, key: false, repeat: false }, canvas)).rejects.toThrow("EncodingError");
    track.close();
  });
});
