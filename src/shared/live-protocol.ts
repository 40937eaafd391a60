/**
 * @module shared/live-protocol
 * The WebSocket protocol of live presenting, version 1: every message both ways,
 * as TypeBox schemas (so the server validates with a compiled checker and serves the same
 * schemas as JSON Schema at /schema/live-message.schema.json) and as TypeScript types.
 * Browser-safe: the client imports this file too (`src/shared/live-protocol.ts`).
 *
 * Roles: `presenter` (the window that went live: the source of truth), `control` (a phone
 * remote or a co-presenter holding the control secret: navigation commands only, relayed to
 * the presenter), `viewer` (follows; sends nothing but `ping`).
 *
 * The first message on a socket is the client's `join` (role + secret); the server answers
 * `hello` with the current snapshot, then streams `state` / `pointer` / `ink` / `counts` /
 * `paused` / `resumed` / `ended`. The audience's messages (questions, polls, reactions)
 * are in ./live-audience-protocol.ts, part of the same unions. The server numbers every state-changing message it relays
 * with `seq` (one counter per session, kept across restarts): a client drops any `state`,
 * `pointer` or `ink` whose seq is not above the last one it applied, and takes `hello.seq`
 * as its new baseline after each (re)connection.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Obj, Page, V } from "./live-schema-kit.ts";
import { LiveAudienceClientMessages, LiveAudienceServerMessages, LiveAudienceView, LiveViewerId } from "./live-audience-protocol.ts";

export const LIVE_PROTOCOL_VERSION = 1 as const;
/** Where the server serves the JSON Schema of every message (both directions). */
export const LIVE_SCHEMA_PATH = "/schema/live-message.schema.json" as const;
/** The largest message (UTF-8 bytes) the server accepts; larger ones are refused with TOO_LARGE. */
export const MAX_LIVE_MESSAGE_BYTES_IN = 64 * 1024;
/** Join codes: 6 characters from this alphabet (no 0/O, 1/I/L look-alikes). */
export const LIVE_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ" as const;
export const LIVE_CODE_LENGTH = 6;
export const LIVE_CODE_PATTERN = "^[2-9A-HJKMNP-Z]{6}$";

/** A typed code as people type it: upper-cased, spaces and dashes dropped; null if it cannot be a code. */
export function normalizeLiveCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  return new RegExp(LIVE_CODE_PATTERN).test(code) ? code : null;
}

// Coordinates are PDF points from the page's top-left; generous bounds, finite by JSON.
const Coord = Type.Number({ minimum: -100_000, maximum: 100_000 });
const Seq = Type.Integer({ minimum: 0, description: "Server-assigned, increasing per session" });

export const LivePointer = Obj({ x: Coord, y: Coord, r: Type.Number({ minimum: 0, maximum: 100_000 }) }, { description: "Laser dot or spotlight centre and radius" });
export const LiveRect = Obj({ x: Coord, y: Coord, w: Type.Number({ minimum: 0, maximum: 100_000 }), h: Type.Number({ minimum: 0, maximum: 100_000 }) });

/** Strokes of one slide a talk keeps (the schema's `ink.maxItems`). */
export const MAX_LIVE_INK_STROKES = 2_000;
/** Numbers in all of one slide's strokes together (≈ 3 MB as JSON): what a talk keeps, saves and sends to a late joiner. */
export const MAX_LIVE_INK_NUMBERS = 400_000;

export const LiveStroke = Obj(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    color: Type.String({ maxLength: 32 }),
    width: Type.Number({ minimum: 0, maximum: 1000 }),
    points: Type.Array(Coord, { maxItems: 12_000, description: "Flat [x, y, pressure, …]" }),
    simulated: Type.Optional(Type.Boolean()),
  },
  { description: "One ink stroke (same shape as the audience window's)" },
);

export const LiveOverlays = Obj({
  pointer: Type.Union([LivePointer, Type.Null()]),
  live: Type.Union([LiveStroke, Type.Null()], { description: "The stroke being drawn now" }),
  zoom: Type.Union([LiveRect, Type.Null()], { description: "Part of the page shown; null = whole page" }),
  inkHidden: Type.Boolean(),
});

export const LiveMediaPlayback = Obj({
  playing: Type.Boolean(),
  time: Type.Number({ minimum: 0, description: "Seconds, when read…" }),
  at: Type.Number({ description: "…at this wall-clock time (epoch ms)" }),
  ended: Type.Optional(Type.Boolean()),
});

/** pdfpc's `-n` values (src/deck/notes-layout.ts NOTES_POSITIONS). */
const LiveNotesPosition = Type.Union([Type.Literal("none"), Type.Literal("right"), Type.Literal("left"), Type.Literal("bottom"), Type.Literal("top")]);

/** What every viewer shows: the presenter's AudienceState plus the slide label. */
export const LiveState = Obj({
  page: Page,
  label: Type.Optional(Type.String({ maxLength: 64, description: "The page's label, e.g. \"3\" for the third overlay of slide 3" })),
  blank: Type.Union([Type.Literal("none"), Type.Literal("black"), Type.Literal("white")]),
  mode: Type.Union([Type.Literal("normal"), Type.Literal("pointer"), Type.Literal("pen"), Type.Literal("eraser"), Type.Literal("spotlight")]),
  overlays: LiveOverlays,
  ink: Type.Array(LiveStroke, { maxItems: MAX_LIVE_INK_STROKES, description: "Committed strokes of `page`" }),
  media: Type.Record(Type.String({ maxLength: 128 }), LiveMediaPlayback, { description: "Playback by media id" }),
  frozen: Type.Boolean(),
  timer: Type.Optional(
    Obj(
      {
        status: Type.Union([Type.Literal("idle"), Type.Literal("running"), Type.Literal("paused")]),
        startedAt: Type.Union([Type.Number(), Type.Null()], { description: "Epoch ms when the running stretch began" }),
        accumulatedMs: Type.Number({ minimum: 0 }),
      },
      { description: "The presenter's talk timer, for the phone remote (viewers do not show it)" },
    ),
  ),
  notesPosition: Type.Optional(
    Type.Union([LiveNotesPosition], {
      description:
        "Where each page's notes half is (Beamer's notes on a second screen), as the presenter applies it: viewers show only the other half, the slide. `none`: whole pages. Absent: viewers keep the layout they detected (older presenters do not send it).",
    }),
  ),
});

export const LiveRole = Type.Union([Type.Literal("presenter"), Type.Literal("control"), Type.Literal("viewer")]);
export const LiveCounts = Obj({
  viewers: Type.Integer({ minimum: 0 }),
  controls: Type.Integer({ minimum: 0 }),
  presenter: Type.Boolean({ description: "A presenter socket is connected" }),
});

export const LiveInkOp = Type.Union([
  Obj({ op: Type.Literal("add"), page: Page, stroke: LiveStroke }),
  Obj({ op: Type.Literal("remove"), page: Page, strokeId: Type.String({ maxLength: 64 }) }),
  Obj({ op: Type.Literal("clear"), page: Page }),
]);

export const LiveCommandAction = Type.Union([
  Type.Literal("next"),
  Type.Literal("prev"),
  Type.Literal("first"),
  Type.Literal("last"),
  Type.Literal("goto"),
  Type.Literal("blank"),
]);

/** Stable error codes of the `error` message (and the reason text of the closes that go with them). */
export const LiveErrorCode = Type.Union([
  Type.Literal("BAD_MESSAGE"),
  Type.Literal("TOO_LARGE"),
  Type.Literal("NOT_ALLOWED"),
  Type.Literal("AUTH_FAILED"),
  Type.Literal("CONTROL_ROTATED"),
  Type.Literal("REPLACED"),
  Type.Literal("RATE_LIMITED"),
  Type.Literal("JOIN_TIMEOUT"),
  Type.Literal("FULL"),
  Type.Literal("NOT_FOUND"),
  Type.Literal("ENDED"),
  Type.Literal("INTERNAL"),
  // The audience talks back: refusals of ask / upvote / vote / react and of the
  // presenter's Q&A and poll commands. Each is answered, nothing is relayed.
  Type.Literal("QA_CLOSED"),
  Type.Literal("QUESTION_RATE"),
  Type.Literal("QA_FULL"),
  Type.Literal("NO_QUESTION"),
  Type.Literal("ALREADY_VOTED"),
  Type.Literal("ADDRESS_LIMIT"),
  Type.Literal("NO_POLL"),
  Type.Literal("POLL_OPEN"),
  Type.Literal("BAD_CHOICE"),
  Type.Literal("BAD_TEXT"),
]);

// ---- client → server ------------------------------------------------------------------------

export const JoinMessage = Obj(
  {
    v: V,
    type: Type.Literal("join"),
    role: LiveRole,
    secret: Type.Optional(Type.String({ maxLength: 128, description: "Presenter secret or control secret; absent for viewers" })),
    viewerId: Type.Optional(LiveViewerId),
  },
  { description: "First message of every socket. Never put a secret in the URL." },
);
export const PresenterStateMessage = Obj({ v: V, type: Type.Literal("state"), state: LiveState }, { description: "Presenter → server: the full audience state" });
export const PresenterPointerMessage = Obj(
  { v: V, type: Type.Literal("pointer"), pointer: Type.Union([LivePointer, Type.Null()]), live: Type.Optional(Type.Union([LiveStroke, Type.Null()])) },
  { description: "Presenter → server: only the pointer (and the stroke being drawn) moved" },
);
export const PresenterInkMessage = Obj({ v: V, type: Type.Literal("ink"), ink: LiveInkOp }, { description: "Presenter → server: one committed-ink change" });
export const PresenterSettingsMessage = Obj(
  { v: V, type: Type.Literal("settings"), allowDownload: Type.Boolean() },
  { description: "Presenter → server: whether viewers may save the PDF" },
);
export const ControlCommandMessage = Obj(
  {
    v: V,
    type: Type.Literal("command"),
    action: LiveCommandAction,
    page: Type.Optional(Page),
    blank: Type.Optional(Type.Union([Type.Literal("none"), Type.Literal("black"), Type.Literal("white")])),
  },
  { description: "Control → server → presenter: navigation only. `goto` needs `page`; `blank` takes `blank` (absent = toggle black)." },
);
export const PingMessage = Obj({ v: V, type: Type.Literal("ping"), t: Type.Optional(Type.Number()) });

export const LiveClientMessage = Type.Union([
  JoinMessage,
  PresenterStateMessage,
  PresenterPointerMessage,
  PresenterInkMessage,
  PresenterSettingsMessage,
  ControlCommandMessage,
  PingMessage,
  ...LiveAudienceClientMessages,
]);

// ---- server → client ------------------------------------------------------------------------

export const LiveSessionInfo = Obj({
  code: Type.String({ pattern: LIVE_CODE_PATTERN }),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  bytes: Type.Integer({ minimum: 0 }),
  totalSlides: Type.Integer({ minimum: 0 }),
  filename: Type.String(),
  allowDownload: Type.Boolean(),
  expiresAt: Type.String({ description: "ISO-8601 UTC" }),
});

export const HelloMessage = Obj(
  {
    v: V,
    type: Type.Literal("hello"),
    role: LiveRole,
    session: LiveSessionInfo,
    seq: Seq,
    state: Type.Union([LiveState, Type.Null()], { description: "null until the presenter sent a first state" }),
    paused: Type.Boolean({ description: "No presenter connected (viewers show \"paused\")" }),
    counts: LiveCounts,
    serverTime: Type.Number({ description: "Epoch ms, to correct media clocks" }),
    audience: Type.Optional(LiveAudienceView),
  },
  { description: "Answer to `join`: everything a late joiner or a reconnecting client needs" },
);
export const StateMessage = Obj({ v: V, type: Type.Literal("state"), seq: Seq, state: LiveState });
export const PointerMessage = Obj({ v: V, type: Type.Literal("pointer"), seq: Seq, pointer: Type.Union([LivePointer, Type.Null()]), live: Type.Optional(Type.Union([LiveStroke, Type.Null()])) });
export const InkMessage = Obj({ v: V, type: Type.Literal("ink"), seq: Seq, ink: LiveInkOp });
export const CountsMessage = Obj({ v: V, type: Type.Literal("counts"), counts: LiveCounts });
export const SettingsMessage = Obj({ v: V, type: Type.Literal("settings"), allowDownload: Type.Boolean() });
export const RelayedCommandMessage = Obj(
  { v: V, type: Type.Literal("command"), action: LiveCommandAction, page: Type.Optional(Page), blank: Type.Optional(Type.Union([Type.Literal("none"), Type.Literal("black"), Type.Literal("white")])) },
  { description: "Server → presenter: a remote asked for this; the presenter applies it and sends the resulting `state`" },
);
export const PausedMessage = Obj({ v: V, type: Type.Literal("paused"), until: Type.String({ description: "ISO-8601: the session ends then unless the presenter returns" }) });
export const ResumedMessage = Obj({ v: V, type: Type.Literal("resumed") });
export const EndedMessage = Obj({
  v: V,
  type: Type.Literal("ended"),
  reason: Type.Union([Type.Literal("ended"), Type.Literal("expired"), Type.Literal("presenter-gone"), Type.Literal("quota")]),
});
export const ErrorMessage = Obj({ v: V, type: Type.Literal("error"), code: LiveErrorCode, message: Type.String() });
export const PongMessage = Obj({ v: V, type: Type.Literal("pong"), t: Type.Optional(Type.Number()), serverTime: Type.Number() });

export const LiveServerMessage = Type.Union([
  HelloMessage,
  StateMessage,
  PointerMessage,
  InkMessage,
  CountsMessage,
  SettingsMessage,
  RelayedCommandMessage,
  PausedMessage,
  ResumedMessage,
  EndedMessage,
  ErrorMessage,
  PongMessage,
  ...LiveAudienceServerMessages,
]);

/** Every message of the protocol, both directions: the served JSON Schema. */
export const LiveMessage = Type.Union([LiveClientMessage, LiveServerMessage], {
  $id: LIVE_SCHEMA_PATH,
  title: "deckhand live message (protocol v1)",
  description: "A WebSocket message of /api/live/{code}/ws, either direction (JSON text frames).",
});

export type LiveStateT = Static<typeof LiveState>;
export type LiveRoleT = Static<typeof LiveRole>;
export type LiveCountsT = Static<typeof LiveCounts>;
export type LiveErrorCodeT = Static<typeof LiveErrorCode>;
export type LiveClientMessageT = Static<typeof LiveClientMessage>;
export type LiveServerMessageT = Static<typeof LiveServerMessage>;

/**
 * WebSocket close codes the server uses (4000 + the HTTP status it corresponds to); the
 * reason text is the `LiveErrorCode`. A client must not reconnect after 4403, 4404, 4409,
 * 4410 or 4503 (it shows the matching screen); after any other close it reconnects with backoff.
 * A bad or forbidden message (`BAD_MESSAGE`, `NOT_ALLOWED`) closes nothing: it is an `error`
 * message and a strike, and too many strikes close the socket as `RATE_LIMITED`.
 */
export const LIVE_CLOSE = {
  AUTH_FAILED: 4403,
  CONTROL_ROTATED: 4403,
  NOT_FOUND: 4404,
  JOIN_TIMEOUT: 4408,
  REPLACED: 4409,
  ENDED: 4410,
  RATE_LIMITED: 4429,
  FULL: 4503,
} as const;

/** Server-side snapshot of a session: what `hello` carries, and what survives a restart. */
export interface LiveSnapshot {
  seq: number;
  state: LiveStateT | null;
}

/**
 * Bytes (UTF-8 JSON, as the server stores and sends it) of one stroke: a stroke travels in one
 * message, so none may be larger than a message; re-serialised numbers can be longer than
 * they came in (`1e5` → `100000`), so the stroke is measured, not the message.
 */
const MAX_LIVE_STROKE_BYTES = MAX_LIVE_MESSAGE_BYTES_IN;
/** Bytes of one slide's strokes together: 400,000 numbers at the client's tenth-of-a-point (`-1234.5,`) ≈ 3 MB, plus ids and colours. */
export const MAX_LIVE_INK_BYTES = 4 * 1024 * 1024;
/** Bytes of a talk's whole saved state (what `hello` carries): the slide's ink plus everything else one state message and the stroke being drawn can add. */
export const MAX_LIVE_STATE_BYTES = MAX_LIVE_INK_BYTES + 4 * MAX_LIVE_MESSAGE_BYTES_IN;

const utf8 = new TextEncoder();
/** Measured once per stroke object (the snapshot keeps the same objects from message to message). */
const strokeSizes = new WeakMap<object, number>();

export function strokeBytes(stroke: Static<typeof LiveStroke>): number {
  let size = strokeSizes.get(stroke);
  if (size === undefined) {
    size = utf8.encode(JSON.stringify(stroke)).byteLength;
    strokeSizes.set(stroke, size);
  }
  return size;
}

/** Why a state is over what a talk keeps (for the TOO_LARGE message), or null when within every bound. */
export function liveStateOverBounds(state: LiveStateT | null): string | null {
  if (!state) return null;
  if (state.ink.length > MAX_LIVE_INK_STROKES) return `A slide keeps at most ${MAX_LIVE_INK_STROKES} strokes for viewers; clear the slide's ink to draw more.`;
  let numbers = 0;
  let inkBytes = 0;
  for (const stroke of state.ink) {
    numbers += stroke.points.length;
    const size = strokeBytes(stroke);
    if (size > MAX_LIVE_STROKE_BYTES) return `A stroke is at most ${MAX_LIVE_STROKE_BYTES} bytes as JSON; draw it in shorter strokes.`;
    inkBytes += size;
  }
  if (numbers > MAX_LIVE_INK_NUMBERS || inkBytes > MAX_LIVE_INK_BYTES) {
    return `A slide keeps at most ${MAX_LIVE_INK_NUMBERS} numbers (${MAX_LIVE_INK_BYTES} bytes) of ink for viewers; clear the slide's ink to draw more.`;
  }
  const live = state.overlays.live;
  if (live && strokeBytes(live) > MAX_LIVE_STROKE_BYTES) return `A stroke is at most ${MAX_LIVE_STROKE_BYTES} bytes as JSON; draw it in shorter strokes.`;
  const rest = utf8.encode(JSON.stringify({ ...state, ink: [] })).byteLength;
  if (rest + inkBytes > MAX_LIVE_STATE_BYTES) return `A talk's state is at most ${MAX_LIVE_STATE_BYTES} bytes; clear the slide's ink or send less.`;
  return null;
}

/** Whether a state is within what a talk keeps: checked by the server before it takes a state, a pointer or a stroke. */
export function inkWithinBounds(state: LiveStateT | null): boolean {
  return liveStateOverBounds(state) === null;
}

/**
 * Apply one presenter message to the snapshot (pure). A `pointer` or `ink` before any state,
 * or an `ink` op for a page other than the shown one, changes nothing but the seq. The seq
 * always advances, so receivers can order every relayed message.
 */
export function mergeLive(snapshot: LiveSnapshot, message: Static<typeof PresenterStateMessage> | Static<typeof PresenterPointerMessage> | Static<typeof PresenterInkMessage>): LiveSnapshot {
  const seq = snapshot.seq + 1;
  if (message.type === "state") return { seq, state: message.state };
  const state = snapshot.state;
  if (!state) return { seq, state };
  if (message.type === "pointer") {
    const overlays = { ...state.overlays, pointer: message.pointer, ...(message.live !== undefined ? { live: message.live } : {}) };
    return { seq, state: { ...state, overlays } };
  }
  const op = message.ink;
  if (op.page !== state.page) return { seq, state };
  if (op.op === "add") return { seq, state: { ...state, ink: [...state.ink.filter((s) => s.id !== op.stroke.id), op.stroke] } };
  if (op.op === "remove") return { seq, state: { ...state, ink: state.ink.filter((s) => s.id !== op.strokeId) } };
  return { seq, state: { ...state, ink: [] } };
}
