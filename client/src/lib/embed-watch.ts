/**
 * @module client/lib/embed-watch
 * Whether a YouTube or Vimeo embed really came up. A frame whose page cannot load (no network,
 * a venue firewall, a refused address) still fires `load`, with the browser's error page in
 * it, and that page cannot be read from here (another origin). What can be seen is the player
 * itself: both talk to the page that embeds them over postMessage — YouTube's player answers
 * the IFrame API's `listening` once the URL has `enablejsapi=1`, Vimeo's announces `ready` and
 * answers `ping` (what @vimeo/player waits for). So a frame stays out of sight until its
 * player has spoken, and counts as failed when it has not, or when the player reports an error.
 */

export type EmbedKind = "youtube" | "vimeo";

export type EmbedOutcome = { ok: true } | { ok: false; why: "no-answer" | "player-error"; code?: number };

/** The origins a player speaks from; a message from anywhere else is not the player. */
const PLAYER_ORIGIN: Record<EmbedKind, RegExp> = {
  youtube: /^https:\/\/www\.youtube(-nocookie)?\.com$/,
  vimeo: /^https:\/\/player\.vimeo\.com$/,
};

/** After the frame loaded, how long its player may take to answer: a live player answers within a second or two of its page loading. */
export const ANSWER_MS = 8000;
/** How long a frame may take to load at all: a firewall that drops packets never answers. */
export const LOAD_MS = 30_000;
/** How often a shown frame is checked for having left the page (then its listener goes). */
const GONE_CHECK_MS = 5000;
/** How often a loaded frame's player is asked to answer (YouTube's ignores asks until its API is up). */
const ASK_MS = 500;

function parse(data: unknown): Record<string, unknown> | null {
  if (typeof data === "string") {
    try {
      const value = JSON.parse(data) as unknown;
      return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return data && typeof data === "object" ? (data as Record<string, unknown>) : null;
}

/** What a player's message says: an error (with YouTube's code), or merely that it is there. */
function readMessage(kind: EmbedKind, data: unknown): EmbedOutcome {
  const message = parse(data);
  if (kind === "youtube" && message?.event === "onError") return { ok: false, why: "player-error", ...(typeof message.info === "number" ? { code: message.info } : {}) };
  if (kind === "vimeo" && message?.event === "error" && (message.data as { method?: string } | undefined)?.method === "ready") return { ok: false, why: "player-error" };
  return { ok: true };
}

function ask(frame: HTMLIFrameElement, kind: EmbedKind, origin: string): void {
  try {
    if (kind === "youtube") frame.contentWindow?.postMessage(JSON.stringify({ event: "listening", id: 1, channel: "widget" }), origin);
    else frame.contentWindow?.postMessage({ method: "ping" }, origin);
  } catch {
    // A frame on its way out: nothing to ask.
  }
}

/**
 * Watch `frame` until its player speaks (`ok`), fails to within the limits, or reports an
 * error (then `failed`, even after it spoke: the player then shows its own error screen).
 * Stops by itself once the frame leaves the page.
 */
export function watchEmbed(frame: HTMLIFrameElement, kind: EmbedKind, report: (outcome: EmbedOutcome) => void): void {
  const origin = new URL(frame.src).origin;
  let spoke = false;
  let over = false;
  let asking: ReturnType<typeof setInterval> | undefined;
  let answerTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearInterval(asking);
    clearTimeout(answerTimer);
    clearTimeout(loadTimer);
    frame.removeEventListener("load", loaded);
  };
  const finish = () => {
    over = true;
    stop();
    window.removeEventListener("message", onMessage);
  };
  const fail = (outcome: EmbedOutcome) => {
    finish();
    if (frame.isConnected) report(outcome);
  };
  function onMessage(event: MessageEvent) {
    if (!frame.isConnected) return finish();
    if (event.source !== frame.contentWindow || !PLAYER_ORIGIN[kind].test(event.origin)) return;
    const outcome = readMessage(kind, event.data);
    if (!outcome.ok) return fail(outcome);
    if (spoke) return;
    spoke = true;
    // Heard: stop asking and timing, but keep listening for a player error while it is shown.
    stop();
    const gone = setInterval(() => {
      if (frame.isConnected) return;
      clearInterval(gone);
      finish();
    }, GONE_CHECK_MS);
    report(outcome);
  }
  function loaded() {
    if (over || spoke) return;
    if (!frame.isConnected) return finish();
    // Every load (an early blank one in some engines, then the player's) starts the wait again;
    // a frame unloaded while the audience's screen is black (audience-stage) waits for nothing.
    clearInterval(asking);
    clearTimeout(answerTimer);
    if (unloaded()) return;
    ask(frame, kind, origin);
    asking = setInterval(() => ask(frame, kind, origin), ASK_MS);
    answerTimer = setTimeout(() => fail({ ok: false, why: "no-answer" }), ANSWER_MS);
  }
  const unloaded = () => frame.src === "about:blank";
  const timeUp = () => {
    if (spoke || over) return;
    if (unloaded()) loadTimer = setTimeout(timeUp, LOAD_MS);
    else fail({ ok: false, why: "no-answer" });
  };
  let loadTimer = setTimeout(timeUp, LOAD_MS);
  window.addEventListener("message", onMessage);
  frame.addEventListener("load", loaded);
}
