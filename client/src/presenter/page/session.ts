/**
 * @module client/presenter/page/session
 * What the presenter window has loaded and chosen, in one object its modules share: the deck
 * and its storage, the renderer, the deck's layout and page sizes, its extras (notes, media,
 * pdfpc data), the audience channel and the live session, and the speaker's own choices.
 * Boot fills it; render, input, persistence, settings and effects read and change it — one
 * object instead of twenty module variables, so each module says what it touches.
 */
import { NO_NOTES_LAYOUT, type NotesLayout, type NotesPosition } from "../../../../src/deck/notes-layout.ts";
import type { DeckExtras, TimerSettings } from "../../../../src/deck/sidecar/types.ts";
import type { MediaContext } from "../../lib/media.ts";
import type { Renderer } from "../../lib/renderer.ts";
import type { PresenterLive } from "../../live/presenter/presenter-live.ts";
import type { TalkBack } from "../../live/presenter/talk-back.ts";
import type { RecordControl } from "../../record/record-control.ts";
import type { RehearsalTimeline } from "../../record/rehearsal.ts";
import type { DeckRecord, DeckStore } from "../../storage/deck-store.ts";
import { EMPTY_EXTRAS } from "../../worker/protocol.ts";
import type { AudienceWindow } from "../audience-window.ts";
import type { Channel } from "../channel.ts";
import { plainLayout, type DeckLayout } from "../../model/deck-layout.ts";
import { effectiveTimer } from "../../model/deck-settings.ts";
import type { Stroke } from "../ink.ts";
import type { Binding } from "../keymap.ts";
import { browserStorage, loadKeymap } from "../keymap-store.ts";
import { loadLayout, type PresenterLayout } from "../layout.ts";
import { loadPreferences } from "../preferences.ts";
import type { PageSizes } from "../views/slide-view.ts";

/** A page size until mupdf has read the deck: 16:9 in points. */
const GUESS_SIZE = { w: 720, h: 405 };

export interface Metrics {
  phases?: Record<string, number | undefined>;
  /** performance.now() when the skeleton had the slide's final size. */
  skeletonMs?: number;
  /** performance.now() when mupdf's own render of the first slide was on screen. */
  firstPaintMs?: number;
  /** performance.now() when the claim's picture of the first slide was (lib/first-slide), if it was. */
  prepaintMs?: number;
  /** From the end of the claim's download to the first sharp slide on screen, whichever painted it. */
  firstSlideAfterDownloadMs?: number;
  steps: number[];
}
/** Read by the benchmarks and the e2e tests through `window.__deckhand` (./presenter.ts). */
export const metrics: Metrics = { steps: [] };
export const storage = browserStorage();
const { notesPicture: notesPictureSaved, ...savedPreferences } = loadPreferences();
/** The per-browser preferences the presenter state starts from. */
export const preferences = savedPreferences;

export interface Session {
  /** Set by boot before anything reads it. */
  deck: DeckRecord;
  store: DeckStore;
  renderer: Renderer | null;
  layout: DeckLayout;
  sizes: PageSizes | null;
  extras: DeckExtras;
  /**
   * The side column has its final rows: the deck's extras are read, so the clocks show the
   * countdown and the pace line if the deck's timer asks for them. The previews are drawn from
   * then on (./render.ts showPreviews), once, at the size the clocks leave them.
   */
  columnReady: boolean;
  channel: Channel | null;
  /** Stops the media report of the page on screen (media-sync.ts). */
  stopReporting: (() => void) | null;
  /** When the key or click that started the current step happened (for the step metric). */
  stepStartedAt: number;
  /** Epoch ms of the pointer event behind the latest overlay change (the audience measures latency from it). */
  overlayInputAt: number;
  bindings: Binding[];
  presenterLayout: PresenterLayout;
  audienceWindow: AudienceWindow | null;
  /** What the deck says about its notes layout (from the worker). */
  detectedLayout: NotesLayout;
  /** The speaker's override of the notes layout, kept with the deck. */
  notesOverride: NotesPosition | null;
  /** The speaker's own timer settings for this deck (override the deck's). */
  ownTimer: TimerSettings | undefined;
  /** Notes from a notes half shown as its picture (remembered per browser). */
  notesPicture: boolean;
  live: PresenterLive | null;
  /** The live talk's questions, polls and reactions. */
  talk: TalkBack | null;
  /**
   * The deck's last rehearsal recording (record/rehearsal.ts lastRehearsal), whose times the
   * talk is paced by; null when there is none — the previous run stands in (./pace.ts).
   */
  rehearsal: RehearsalTimeline | null;
  /** The Record control and its recorder (client/record/). */
  recording: RecordControl | null;
}

export const session: Session = {
  deck: undefined as unknown as DeckRecord,
  store: undefined as unknown as DeckStore,
  renderer: null,
  layout: plainLayout(1),
  sizes: null,
  extras: EMPTY_EXTRAS,
  columnReady: false,
  channel: null,
  stopReporting: null,
  stepStartedAt: 0,
  overlayInputAt: 0,
  bindings: loadKeymap(storage),
  presenterLayout: loadLayout(storage),
  audienceWindow: null,
  detectedLayout: NO_NOTES_LAYOUT,
  notesOverride: null,
  ownTimer: undefined,
  notesPicture: notesPictureSaved ?? false,
  live: null,
  talk: null,
  rehearsal: null,
  recording: null,
};

/** What ink is stored, per page, so only pages that changed are written. */
export const savedInk = new Map<number, readonly Stroke[]>();

export const pageSize = (page: number) => session.sizes?.get(page) ?? GUESS_SIZE;

/** The timer's settings in force: the speaker's over the deck's (.pdfpc file, attached .pdfpc, XMP). */
export const timerSettings = (): TimerSettings => effectiveTimer(session.extras.timer, session.ownTimer);

/** The deck's notes file (a .pdfpc beside the PDF, stored with the deck by the claim or the library). */
export function notesFile(): string | undefined {
  return typeof session.deck.notes?.pdfpc === "string" ? session.deck.notes.pdfpc : undefined;
}

/** How media reach this window: the stored copy first (offline), the network when online. */
export const mediaCtx: MediaContext = {
  renderer: null as unknown as Renderer,
  role: "presenter",
  blobUrls: new Map(),
  storedMedium: async (url) => {
    const record = await session.store.getMediaFile(session.deck.id, url);
    return record ? { data: record.data, mime: record.mime } : undefined;
  },
  online: () => navigator.onLine,
};
