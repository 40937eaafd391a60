/**
 * @module client/export/video-codec
 * Which video encoder this browser offers for an export, asked of WebCodecs itself: VP9, else
 * VP8 (both play in WebM everywhere), at 1920×1080, else at 1280×720; at a constant quality
 * (`bitrateMode: "quantizer"`, so a slide held for minutes and a pen stroke get the same
 * sharpness whatever the time between frames), else at a bitrate. Null when there is none —
 * an engine without WebCodecs video encoding — and the page says so in plain words.
 */

export interface VideoChoice {
  /** mediabunny's name for the codec. */
  codec: "vp9" | "vp8";
  config: VideoEncoderConfig;
  /** Per-frame options: the quantizer in constant-quality mode. */
  frameOptions: (key: boolean) => VideoEncoderEncodeOptions;
}

/** The sizes tried, best first: the projector's 1080p, then 720p for a weaker encoder. */
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

/**
 * Constant quality (0 best – 63 worst for both codecs): 32 keeps a slide's small text crisp at
 * ~40–60 KB a 1080p keyframe (bench/export.ts measures the size per minute).
 */
const QUANTIZER = 32;
/** Without constant quality: a bitrate that keeps text legible on pen strokes (slides change rarely). */
const BITRATE = 2_500_000;

const CODECS = [
  // Profile 0, level 4.0 (up to 1080p at 30 fps), 8 bits.
  { codec: "vp9" as const, string: "vp09.00.40.08" },
  { codec: "vp8" as const, string: "vp8" },
];

async function supported(config: VideoEncoderConfig): Promise<boolean> {
  try {
    return (await VideoEncoder.isConfigSupported(config)).supported === true;
  } catch {
    return false;
  }
}

/**
 * Have the media stack start on the page's main thread before WebCodecs is asked anything.
 * WebKitGTK 2.50's web process crashed (GStreamer: "gst_register_core_elements: code should not
 * be reached") when `VideoEncoder.isConfigSupported` was a page's first use of GStreamer after a
 * worker had run (the library after a deck's thumbnail); a media element's `canPlayType` first
 * starts GStreamer the usual way. Costs nothing elsewhere; in a worker there is no document
 * (the page that starts an export has asked already).
 */
function startMediaStack(): void {
  if (typeof document !== "undefined") document.createElement("video").canPlayType('video/webm; codecs="vp9"');
}

/** The best encoder this browser has for an export, or null. */
export async function chooseVideoCodec(): Promise<VideoChoice | null> {
  if (typeof VideoEncoder === "undefined" || typeof VideoFrame === "undefined" || typeof OffscreenCanvas === "undefined") return null;
  startMediaStack();
  for (const size of SIZES) {
    for (const { codec, string } of CODECS) {
      const base: VideoEncoderConfig = { codec: string, ...size, latencyMode: "realtime" };
      // A per-frame quantizer is registered for VP9 (and AV1, AVC), not for VP8: VP8 goes by bitrate.
      const quantized: VideoEncoderConfig = { ...base, bitrateMode: "quantizer" };
      if (codec === "vp9" && (await supported(quantized))) return { codec, config: quantized, frameOptions: (key) => ({ keyFrame: key, vp9: { quantizer: QUANTIZER } }) as VideoEncoderEncodeOptions };
      const rated: VideoEncoderConfig = { ...base, bitrate: BITRATE, bitrateMode: "variable" };
      if (await supported(rated)) return { codec, config: rated, frameOptions: (key) => ({ keyFrame: key }) };
    }
  }
  return null;
}
