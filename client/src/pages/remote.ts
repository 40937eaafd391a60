/**
 * @module client/pages/remote
 * /live/{code}/control#{secret} — a phone as the remote: big Previous/Next buttons and
 * swipes, the current and next slide, the notes and the clock. The control secret is read
 * from the fragment only (a fragment never reaches the server, a log or a Referer) and goes
 * to the server in the socket's first message. The deck comes like a viewer's (kept in this
 * browser, downloaded once), and with it the notes file the presenter sent beside it (a .pdfpc
 * or a PowerPoint file, normalised: ../live/remote/live-notes.ts), which the renderer opens the deck
 * with as the presenter's does: the same notes, slides grouped by its overlays, hidden pages
 * and end slide. When the presenter rotates the link, or the secret is refused,
 * the remote says so and stops. With Beamer's notes on a second screen the slides are the
 * slide halves and the notes are the notes halves' text, split as the presenter splits them
 * (the live state carries the position). A press while the presenter window is away (or this
 * remote's connection is down) is held and sent on their return — only the last one, for up to
 * a minute — and the status line says which press waits, was sent, or was dropped
 * (../live/remote/held-command.ts).
 */
import type { LiveServerMessageT, LiveStateT } from "../../../src/shared/live-protocol.ts";
import { $, h, replace, setData, setText } from "../lib/dom.ts";
import { Renderer } from "../lib/renderer.ts";
import { formatClock } from "../lib/format.ts";
import { elapsedSeconds, parseTimer } from "../lib/timer.ts";
import { openedLayout, plainLayout, positionOf, previewPage, withTalk, type DeckLayout } from "../model/deck-layout.ts";
import { watchGestures } from "../presenter/gestures.ts";
import { slideName } from "../presenter/views/counter-view.ts";
import { NotesView } from "../presenter/views/notes-view.ts";
import { pageSizes, SlideView, type PageSizes } from "../presenter/views/slide-view.ts";
import { DeckStore } from "../storage/deck-store.ts";
import { EMPTY_EXTRAS } from "../worker/protocol.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import { codeFromPath } from "../live/connection/code.ts";
import { DeckDownloadError, liveDeck } from "../live/connection/deck-download.ts";
import { liveNotes } from "../live/remote/live-notes.ts";
import { LiveSocket, type Stopped } from "../live/connection/socket.ts";
import { RemoteAudience } from "../live/remote/remote-audience.ts";
import { HOLD_MS, expired, release, remoteStatus, type Held, type HeldAction, type RemoteLink } from "../live/remote/held-command.ts";

/** How often the clock redraws. */
const TICK_MS = 500;
/** A turned phone fires several resizes in a row: paint again once they have settled. */
const RELAYOUT_MS = 120;

let renderer: Renderer | null = null;
let sizes: PageSizes | null = null;
let layout: DeckLayout = plainLayout(1);
let extras: DeckExtras = EMPTY_EXTRAS;
let state: LiveStateT | null = null;
let seq = -1;
let socket: LiveSocket | null = null;
let code = "";
/** The notes file the presenter sent with the deck (normalised .pdfpc text), when one came. */
let notesFile: string | undefined;
/** The split this remote's worker applies ("none": whole pages). */
let notesPosition: NotesPosition = "none";
/** Whether a press reaches the presenter now, the press waiting until it does, and what became of the last one. */
let link: RemoteLink = "offline";
let held: Held | null = null;
let last: { sent?: HeldAction; dropped?: HeldAction } = {};
let holdTimer: ReturnType<typeof setTimeout> | undefined;

const current = new SlideView($("#current-frame"), $("#current-box"), $("#current") as HTMLCanvasElement, () => renderer, () => sizes, 100);
const next = new SlideView($("#next-frame"), $("#next-box"), $("#next") as HTMLCanvasElement, () => renderer, () => sizes, 90);
const notes = new NotesView($("#notes"));
const status = $("#remote-status");
/** The questions and the poll: shown once the server's hello carries them. */
const audience = new RemoteAudience((message) => socket?.send(message) ?? false);

function screen(title: string, text: string, kind: string): void {
  document.body.dataset.screen = kind;
  $("#screen").hidden = false;
  replace($("#screen-title"), title);
  replace($("#screen-text"), text);
  replace($("#screen-actions"), h("a", { class: "btn", href: "/" }, "Home"));
}

/** The presenter splits the pages another way: follow (slides, sizes and notes change). */
async function followNotesPosition(position: NotesPosition): Promise<void> {
  if (!renderer || position === notesPosition) return;
  notesPosition = position;
  document.body.dataset.notesPosition = position;
  const result = await renderer.setLayout(position);
  sizes = pageSizes(result.firstPage);
  extras = await renderer.extras(notesFile).catch(() => EMPTY_EXTRAS);
  current.clear();
  next.clear();
  notes.reset();
  render();
}

function render(): void {
  if (!state) return;
  if (state.notesPosition && state.notesPosition !== notesPosition) {
    void followNotesPosition(state.notesPosition);
    return;
  }
  const page = Math.min(Math.max(1, state.page), layout.pageCount);
  document.body.dataset.slide = String(page);
  if (page !== current.page) {
    const label = slideName(layout, page);
    void current.show(page, label);
    const preview = previewPage(layout, page);
    // On the last slide the preview's place says so, with nothing of the slide shown before.
    $("#next-end").hidden = preview !== null;
    next.canvas.hidden = preview === null;
    document.body.dataset.nextSlide = String(preview ?? "");
    if (preview !== null) void next.show(preview, `Next: ${slideName(layout, preview)}`);
    else next.card(page);
    replace($("#next-caption"), preview !== null ? `Next: ${positionOf(layout, preview).label}` : "End of deck");
    const p = positionOf(layout, page);
    replace($("#counter"), `Slide ${p.label} / ${p.lastLabel}`);
    notes.render(page, extras.notes[page], 1, extras.notesFormat[page]);
  }
  ($("#remote-prev") as HTMLButtonElement).disabled = page <= 1;
  ($("#remote-next") as HTMLButtonElement).disabled = page >= layout.pageCount;
  $("#remote-blank").setAttribute("aria-pressed", String(state.blank !== "none"));
  document.body.dataset.blank = state.blank;
}

/** The presenter's elapsed timer when the state carries it, else the time of day. */
function tick(): void {
  const timer = (state as { timer?: unknown } | null)?.timer;
  const el = $("#remote-timer");
  const parsed = timer ? parseTimer(timer) : null;
  const label = parsed ? "Elapsed" : "Clock";
  const text = parsed ? formatClock(elapsedSeconds(parsed, Date.now())) : new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  // Twice a second, but a change at most once a second: only a change is written (a rewrite
  // of the same text lays out and paints the phone's page again for nothing).
  if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
  setText(el, text);
  if (parsed) setData(document.body, "timer", parsed.status);
}

function showStatus(): void {
  document.body.dataset.link = link;
  document.body.dataset.held = held ? held.command.action : "";
  replace(status, remoteStatus(link, held, last));
}

/** The held press is done with: sent, or dropped. */
function settle(outcome: { sent?: HeldAction; dropped?: HeldAction }): void {
  held = null;
  clearTimeout(holdTimer);
  last = outcome;
}

/** The presenter can be reached (again): a held press goes now, or is reported as dropped. */
function reachable(now: boolean): void {
  link = now ? "connected" : "away";
  if (now && held) {
    const { send, dropped } = release(held, Date.now());
    // A press the socket did not take stays held (the next hello tries again).
    if (send && socket?.send({ type: "command", ...send })) settle({ sent: send });
    else if (dropped) settle({ dropped });
  }
  showStatus();
}

function onMessage(message: LiveServerMessageT): void {
  audience.receive(message);
  if (message.type === "hello") {
    seq = message.seq;
    if (message.state) state = message.state;
    document.body.dataset.screen = "live";
    reachable(!message.paused);
  } else if (message.type === "state") {
    if (message.seq <= seq) return;
    seq = message.seq;
    state = message.state;
  } else if (message.type === "paused") reachable(false);
  else if (message.type === "resumed") reachable(true);
  else if (message.type === "ended") return ended();
  else return;
  render();
}

function ended(): void {
  socket?.close();
  screen("The talk has ended", "The presenter ended this live session. This remote has nothing more to do.", "ended");
}

function onStop(stopped: Stopped): void {
  if (stopped.reason === "ENDED" || stopped.code === 4410) return ended();
  if (stopped.reason === "NOT_FOUND") return screen("No talk with this code", "This remote link points to a talk the server does not know.", "not-found");
  refused();
}

function refused(): void {
  screen("Remote link no longer valid", "The presenter changed the remote link, or this one is incomplete. Scan the new QR code in the presenter's live panel.", "refused");
}

/** Send a press, or hold it (../live/remote/held-command.ts) while the presenter or the connection is away. */
function command(press: HeldAction): void {
  last = {};
  if (link === "connected" && socket?.send({ type: "command", ...press })) return showStatus();
  held = { command: press, at: Date.now() };
  clearTimeout(holdTimer);
  // Said as soon as it is dropped, not only when the presenter is back.
  holdTimer = setTimeout(() => {
    if (!held || !expired(held, Date.now())) return;
    settle({ dropped: held.command });
    showStatus();
  }, HOLD_MS + 100);
  showStatus();
}

function wireInput(): void {
  $("#remote-prev").addEventListener("click", () => command({ action: "prev" }));
  $("#remote-next").addEventListener("click", () => command({ action: "next" }));
  $("#remote-blank").addEventListener("click", () => command({ action: "blank", blank: state?.blank === "none" ? "black" : "none" }));
  watchGestures([$(".remote-slides")], () => true, (direction) => command({ action: direction }));
  document.addEventListener("keydown", (event) => {
    // A clicker or a keyboard paired with the phone; Space on a focused button is that button's.
    if (event.key === " " && (event.target as HTMLElement).closest("button, a")) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") command({ action: "next" });
    else if (event.key === "ArrowLeft" || event.key === "PageUp") command({ action: "prev" });
    else return;
    event.preventDefault();
  });
}

/** The phone turned (or the window changed): lay the slides out, sharp, for their new boxes. */
function watchResize(): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (current.page) void current.relayout(slideName(layout, current.page));
      if (next.page) void next.relayout(`Next: ${slideName(layout, next.page)}`);
    }, RELAYOUT_MS);
  });
  observer.observe($("#current-box"));
  observer.observe($("#next-box"));
}

async function main(): Promise<void> {
  const parsed = codeFromPath(location.pathname);
  const secret = decodeURIComponent(location.hash.replace(/^#/, ""));
  if (!parsed) return screen("No talk with this code", "This remote link is not complete. Scan the QR code in the presenter's live panel again.", "not-found");
  if (!secret) return screen("Remote link no longer valid", "The link lost its secret part (after “#”). Scan the QR code in the presenter's live panel again.", "refused");
  code = parsed;
  replace($("#remote-title"), `Remote · ${code}`);
  let info: { sha256: string; filename: string; notes?: boolean };
  try {
    const response = await fetch(`/api/live/${encodeURIComponent(code)}`, { cache: "no-store", credentials: "omit" });
    if (response.status === 404) return screen("No talk with this code", "This remote link points to a talk the server does not know.", "not-found");
    if (response.status === 410) return ended();
    if (!response.ok) return screen("The remote cannot start", `The server answered ${response.status}. Reload to try again.`, "error");
    info = (await response.json()) as typeof info;
  } catch {
    return screen("The remote cannot start", "The server cannot be reached. Check the network, then reload.", "error");
  }
  replace(status, "Loading the slides…");
  const store = await DeckStore.open().catch(() => null);
  try {
    const [deck, sent] = await Promise.all([liveDeck(code, info.sha256, info.filename, store, () => {}), info.notes ? liveNotes(code, secret) : null]);
    if (sent?.kind === "refused") return refused();
    if (sent?.kind === "ended") return ended();
    notesFile = sent?.kind === "notes" ? sent.pdfpc : undefined;
    document.body.dataset.notesFile = sent?.kind ?? "none";
    renderer = new Renderer();
    const opened = await renderer.open(deck.data, notesFile ? { notesFile } : {});
    sizes = pageSizes(opened.firstPage);
    notesPosition = opened.layout.kind === "beamer-second-screen" ? opened.layout.position : "none";
    document.body.dataset.notesPosition = notesPosition;
    extras = await renderer.extras(notesFile).catch(() => EMPTY_EXTRAS);
    // Grouped, hidden and ended as the presenter's (without the speaker's own timer settings, which stay in that window).
    layout = withTalk(openedLayout(opened), { hidden: extras.hidden, endSlide: extras.timer.endSlide });
    audience.setPolls(extras.polls);
  } catch (error) {
    if (error instanceof DeckDownloadError && error.kind === "gone") return ended();
    return screen("The remote cannot start", "The slides could not be loaded. Reload to try again.", "error");
  }
  wireInput();
  watchResize();
  tick();
  setInterval(tick, TICK_MS);
  socket = new LiveSocket({
    code,
    role: "control",
    secret: () => secret,
    onMessage,
    onStatus: (s) => {
      document.body.dataset.socket = s;
      // "open" is followed by hello, which says whether the presenter is there.
      if (s === "open") return;
      link = "offline";
      showStatus();
    },
    onStop,
  });
}

void main();
