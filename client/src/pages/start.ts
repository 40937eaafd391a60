/**
 * @module client/pages/start
 * /start/{id}#t=TOKEN — claim a handoff: download (resuming with Range after a cut) while
 * hashing every chunk, check that digest against the server's, store bytes and metadata in
 * one durable IndexedDB transaction (the very chunks hashed, gathered), complete the handoff
 * with the digest, then open the presenter. Nothing here consumes the link until the bytes
 * are verified and on disk. A deck that came with a notes file (a `.pdfpc` or `.pptx` beside
 * the PDF, normalised by the server) has it fetched beside the download and stored in the
 * same transaction as the bytes: the link is never used up with the notes lost.
 *
 * The first slide shows here the moment it can (the budget: within ~500 ms of the last byte,
 * docs/performance.md):
 * the probe worker, its mupdf compiled during the download, renders slide 1 from the bytes in
 * memory while they are stored and the claim confirmed, and this page paints it — the slide
 * half only, under the split this browser keeps for the deck. Not for a deck this browser
 * presented before at another slide: its presenter resumes there, and slide 1 is not shown
 * (./start/first-slide.ts). What the download has so far is one record (./start/download.ts).
 */
import type { ProblemReply } from "../../../src/shared/problem.ts";
import { $, h, replace } from "../lib/dom.ts";
import { formatBytes } from "../lib/format.ts";
import { readProblem } from "../lib/problem.ts";
import { deckSize, slidesOf } from "../lib/deck-size.ts";
import {
  cleanedStartUrl,
  ClaimFailure,
  decodeFilename,
  EarlyRequest,
  fetchHandoffNotes,
  notesHint,
  parseHandoffLink,
  resumeDecision,
  handoffDownload,
  screenForProblem,
  screenText,
  type HandoffLink,
  type ScreenKind,
} from "../lib/handoff.ts";
import { offlineNotice, registerOffline } from "../lib/offline.ts";
import { DeckProbe, type ProbedLayout } from "../lib/deck-probe.ts";
import { firstSlidePlan, previewWidth, showFirstSlide } from "./start/first-slide.ts";
import { keepFirstSlide } from "../lib/first-slide.ts";
import { DeckBuffer } from "../lib/deck-buffer.ts";
import { reprDigestToHex } from "../lib/sha256.ts";
import { freshDownload, restartDownload } from "./start/download.ts";
import { DeckStore, StorageError, type DeckNotes, type DeckRecord } from "../storage/deck-store.ts";

const titleEl = $("#title");
const metaEl = $("#meta");
const statusEl = $("#status");
const actionsEl = $("#actions");
const progressEl = $("#progress");
const barEl = $("#progress-bar");
const previewEl = $("#preview");

/** How long the presenter's opening waits for the page sizes and labels; past it, it reads them itself. */
const LAYOUT_WAIT_MS = 2000;
/**
 * How much longer it waits for the first slide's picture (usually ready by then: it is made
 * while the deck is stored and the claim confirmed). The probe has mupdf compiled and the deck
 * open, so what is left of its picture is shorter than a new presenter's own first render
 * (500–750 ms after it opens on a quiet machine, 2.5–5 s on a loaded one, where the picture
 * came 100–500 ms after the claim was confirmed and a 300 ms wait missed it in 2 of 6 runs).
 */
const FIRST_SLIDE_WAIT_MS = 1500;

/** Longest the store waits for the first slide's paint (usually 200–450 ms after the last byte). */
const PAINT_BEFORE_STORE_MS = 700;

/** For the benchmark: milliseconds from the end of the download to each step of the claim (the presenter reports them). */
const claimPhases: Record<string, number> = {};
let downloadEndAt = 0;
function mark(phase: string) {
  if (downloadEndAt) claimPhases[phase] = performance.now() - downloadEndAt;
}

let link: HandoffLink;
/** A render worker started with the download, so mupdf's WASM compiles meanwhile. */
const probe = new DeckProbe();
let store: DeckStore | null = null;
const download = freshDownload();
/** The notes file, asked for as soon as the download's headers came (it needs none of the bytes). */
const notes = new EarlyRequest(fetchNotes);

function setProgress(fraction: number | null) {
  progressEl.hidden = false;
  progressEl.classList.toggle("indeterminate", fraction === null);
  const pct = fraction === null ? 0 : Math.round(fraction * 100);
  barEl.style.width = fraction === null ? "" : `${pct}%`;
  progressEl.setAttribute("aria-valuenow", String(pct));
}

function showMeta() {
  const parts: string[] = [];
  // The server counts PDF pages; the slides (by page label) are known once the probe read them.
  if (download.totalSlides) parts.push(deckSize(download.totalSlides, download.slides));
  if (download.total) parts.push(formatBytes(download.total));
  replace(metaEl, parts.join(" · "));
  if (download.filename) replace(titleEl, download.filename);
}

function apiUrl(path: string): string {
  return `/api/sessions/${encodeURIComponent(link.id)}${path}`;
}

async function fetchDeck(): Promise<void> {
  let response: Response;
  try {
    const request = handoffDownload(apiUrl("/handoff"), link.token!, download.received);
    response = await fetch(request.url, request.init);
  } catch {
    throw new ClaimFailure(download.received > 0 ? "interrupted" : "offline");
  }
  if (response.status !== 200 && response.status !== 206) {
    const problem = await readProblem(response);
    throw new ClaimFailure(screenForProblem(problem), problem);
  }

  const decision = download.received > 0 ? resumeDecision(response.status, response.headers.get("content-range"), download.received) : "restart";
  if (decision === "invalid") {
    // The server cannot continue where we stopped: start again from the first byte.
    await response.body?.cancel();
    restartDownload(download);
    return fetchDeck();
  }
  if (decision === "restart") {
    restartDownload(download);
    const length = Number(response.headers.get("content-length"));
    download.total = Number.isFinite(length) && length > 0 ? length : null;
    download.bytes = new DeckBuffer(download.total);
    download.filename = decodeFilename(response.headers.get("x-filename"));
    const slides = Number(response.headers.get("x-total-slides"));
    download.totalSlides = Number.isInteger(slides) && slides > 0 ? slides : null;
    download.serverDigest = reprDigestToHex(response.headers.get("repr-digest"));
    download.hasNotes = notesHint(response.headers.get("x-notes"));
  }
  // The notes travel beside the PDF rather than after it: the claim still waits for them
  // before it stores anything, but no longer for a round trip after the last byte.
  notes.start();
  showMeta();
  replace(statusEl, download.received > 0 ? "Resuming download…" : "Downloading…");

  const reader = response.body?.getReader();
  if (!reader) throw new ClaimFailure("server");
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const at = download.received;
      download.bytes.append(value);
      download.received += value.byteLength;
      download.hasher.update(value);
      // Last: the probe's worker may take the chunk's buffer over.
      probe.receive(value, at, download.total);
      setProgress(download.total ? download.received / download.total : null);
    }
  } catch {
    throw new ClaimFailure("interrupted");
  }
  if (download.total !== null && download.received < download.total) throw new ClaimFailure("interrupted");
  download.done = true;
}

/** The deck's notes file, if it came with one (lib/handoff: fetchHandoffNotes). */
async function fetchNotes(): Promise<DeckNotes | undefined> {
  return fetchHandoffNotes(fetch, link.id, link.token!, download.hasNotes);
}

/**
 * Keep page 1's size and every page label (read by the probe) with the deck: the presenter
 * then shows a skeleton of the slide's final size and the counter from its first paint,
 * before its own mupdf has loaded. Never fails the claim: it only saves a first paint.
 */
async function rememberLayout(deck: DeckRecord, measured: Promise<ProbedLayout | null>): Promise<void> {
  const layout = await measured;
  if (layout && download.totalSlides) {
    download.slides = slidesOf(download.totalSlides, layout.labels);
    showMeta();
  }
  if (layout) await store!.setDeckLayout(deck.id, layout).then(() => mark("layoutMs"), () => {});
}

/**
 * Keep the probe's picture of slide 1 for the presenter (lib/first-slide). There is none for a
 * deck the presenter will resume at another slide: firstSlidePlan asked for none.
 */
async function rememberFirstSlide(deck: DeckRecord, rendered: Promise<Blob | null>, measured: Promise<ProbedLayout | null>): Promise<void> {
  const [picture, layout] = await Promise.all([rendered, measured]);
  if (!picture || !layout) return;
  await keepFirstSlide(deck.id, picture, { ...layout, title: deck.title });
  mark("keptMs");
}

/** The digest of the bytes downloaded, checked against the server's: a damaged download goes no further. */
function verifiedDigest(): string {
  const digest = download.hasher.hex();
  if (download.serverDigest && digest !== download.serverDigest) {
    restartDownload(download);
    throw new ClaimFailure("checksum");
  }
  return digest;
}

async function storeAndVerify(data: ArrayBuffer, digest: string, notes: DeckNotes | undefined): Promise<DeckRecord> {
  replace(statusEl, "Checking and storing the deck in this browser…");
  setProgress(1);
  let deck: DeckRecord;
  try {
    deck = await store!.putDeck({
      title: download.filename,
      filename: download.filename,
      totalSlides: download.totalSlides ?? 0,
      sha256: digest,
      source: "handoff",
      handoffId: link.id,
      data,
      ...(notes ? { notes } : {}),
    });
  } catch (error) {
    throw storageScreen(error);
  }
  mark("storedMs");
  return deck;
}

function storageScreen(error: unknown): ClaimFailure {
  const kind = error instanceof StorageError ? error.kind : "unknown";
  return new ClaimFailure(kind === "quota" ? "storage-quota" : kind === "unavailable" ? "storage-unavailable" : "storage-quota");
}

async function complete(deck: DeckRecord): Promise<void> {
  replace(statusEl, "Confirming with the server…");
  let response: Response;
  try {
    response = await fetch(apiUrl("/handoff/complete"), {
      method: "POST",
      headers: { "x-controller-token": link.token!, "content-type": "application/json" },
      body: JSON.stringify({ sha256: deck.sha256 }),
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
  } catch {
    throw new ClaimFailure("offline");
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    const kind = screenForProblem(problem);
    if (kind === "checksum") {
      // The server keeps the deck staged; drop our copy and download afresh on retry.
      await store!.deleteDeck(deck.id).catch(() => {});
      restartDownload(download);
    }
    throw new ClaimFailure(kind, problem);
  }
  mark("confirmedMs");
  // The server hands a live grant with the claim (bound to this deck's digest): keep it, so
  // this browser may go live on a server that asks for credentials.
  const answer = (await response.json().catch(() => null)) as { liveGrant?: { grant?: unknown; expiresAt?: unknown } } | null;
  const grant = answer?.liveGrant;
  if (typeof grant?.grant === "string" && typeof grant.expiresAt === "string") await store!.setLiveGrant(deck.id, { grant: grant.grant, expiresAt: grant.expiresAt }).catch(() => {});
  await store!.markHandoffCompleted(deck.id);
}

function openPresenter(deck: DeckRecord) {
  replace(titleEl, deck.title);
  replace(statusEl, "Stored. Opening the presenter…");
  location.replace(`/present/${encodeURIComponent(deck.id)}`);
}

async function showFailure(kind: ScreenKind, problem?: ProblemReply) {
  const text = screenText(kind);
  document.body.dataset.screen = kind;
  progressEl.hidden = true;
  previewEl.hidden = true;
  delete document.body.dataset.preview;
  replace(titleEl, text.title);
  replace(statusEl, text.message);
  statusEl.classList.add("status-error");
  const buttons: HTMLElement[] = [];
  if (kind === "claimed" && store) {
    const mine = await store.findByHandoff(link.id).catch(() => undefined);
    if (mine) {
      replace(statusEl, "This browser already holds this deck: the link was used here.");
      statusEl.classList.remove("status-error");
      buttons.push(h("a", { class: "btn btn-primary", href: `/present/${encodeURIComponent(mine.id)}`, id: "open-claimed" }, `Open “${mine.title}”`));
    }
  }
  if (text.retry) buttons.push(h("button", { type: "button", class: "btn btn-primary", id: "retry", onclick: () => void run() }, download.received > 0 && !download.done ? "Resume download" : "Try again"));
  buttons.push(h("a", { class: "btn", href: "/" }, "Go to your decks"));
  replace(actionsEl, ...buttons);
  if (problem?.detail && kind === "server") metaEl.textContent = problem.detail;
}

async function run(): Promise<void> {
  document.body.dataset.screen = "loading";
  statusEl.classList.remove("status-error");
  replace(actionsEl);
  try {
    if (!link.token) throw new ClaimFailure("token-missing");
    if (!store) {
      try {
        store = await DeckStore.open();
      } catch (error) {
        throw storageScreen(error);
      }
    }
    // A claim that stored the deck but lost the server's answer resumes at "complete".
    let deck = await store.findByHandoff(link.id);
    if (deck?.handoffCompletedAt) return openPresenter(deck);
    let layout: Promise<void> = Promise.resolve();
    let firstSlide: Promise<void> = Promise.resolve();
    if (!deck) {
      probe.warm();
      setProgress(download.total ? download.received / download.total : null);
      if (!download.done) {
        await fetchDeck();
        // For the benchmark: the presenter reports the time from here to its first slide.
        sessionStorage.setItem("dh:download-end", String(performance.timeOrigin + performance.now()));
        downloadEndAt = performance.now();
      }
      const data = download.bytes.bytes();
      const digest = verifiedDigest();
      const plan = await firstSlidePlan(store!, digest);
      const probed = probe.read(data, { ...(plan.notesPosition ? { notesPosition: plan.notesPosition } : {}), slideWidth: previewWidth });
      void probed.layout.then(() => mark("openedMs"));
      const slide = plan.show ? probed.slide() : Promise.resolve(null);
      void slide.then(() => mark("renderedMs"));
      const shown = plan.show ? showFirstSlide(slide, mark) : Promise.resolve(false);
      // The presenter's picture is rendered after this page's, at the presenter's size.
      const picture = plan.show ? probed.picture() : (probed.done(), Promise.resolve(null));
      void picture.then(() => mark("pictureMs"));
      if (download.hasNotes !== false) replace(statusEl, download.hasNotes ? "Fetching the speaker notes…" : "Checking for speaker notes…");
      const notesFile = await notes.take();
      mark("notesMs");
      // The first slide is painted before the deck is stored: storing holds this page's main
      // thread while IndexedDB serialises the bytes (~450 ms for 20 MB on a loaded 2-core
      // machine), and no paint happens meanwhile. Bounded: a slow render never holds the claim long.
      await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, PAINT_BEFORE_STORE_MS))]);
      deck = await storeAndVerify(data, digest, notesFile);
      layout = rememberLayout(deck, probed.layout);
      firstSlide = rememberFirstSlide(deck, picture, probed.layout);
    }
    await complete(deck);
    mark("completeMs");
    await Promise.race([layout, new Promise((resolve) => setTimeout(resolve, LAYOUT_WAIT_MS))]);
    await Promise.race([firstSlide, new Promise((resolve) => setTimeout(resolve, FIRST_SLIDE_WAIT_MS))]);
    const downloadEnd = Number(sessionStorage.getItem("dh:download-end"));
    if (downloadEnd) sessionStorage.setItem("dh:claim-ms", String(performance.timeOrigin + performance.now() - downloadEnd));
    mark("navigateMs");
    if (downloadEndAt) sessionStorage.setItem("dh:claim-phases", JSON.stringify(claimPhases));
    void navigator.storage?.persist?.().catch(() => false);
    document.body.dataset.screen = "done";
    openPresenter(deck);
  } catch (error) {
    if (error instanceof ClaimFailure) return showFailure(error.kind, error.problem);
    console.error(error);
    return showFailure("server");
  }
}

async function main() {
  const parsed = parseHandoffLink(new URL(location.href));
  if (!parsed) {
    link = { id: "", token: null, tokenInQuery: false };
    return showFailure("not-found");
  }
  link = parsed;
  // The token must not linger in the query string, where server logs and Referer headers
  // would keep it (docs/api/rest.md): move it
  // to the fragment at once.
  if (link.tokenInQuery) history.replaceState(null, "", cleanedStartUrl(link, location.origin));
  // Install the offline shell while the deck downloads.
  void registerOffline().then((status) => {
    const notice = offlineNotice(status);
    if (notice) $("#notices").append(notice);
  });
  // Pasting the corrected link into the same tab only changes the fragment: start over.
  window.addEventListener("hashchange", () => location.reload());
  await run();
}

void main();
