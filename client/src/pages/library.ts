/**
 * @module client/pages/library
 * `/` — the decks stored in this browser: open, download (as it came, or with the ink drawn
 * while presenting, written as PDF Ink annotations in the browser), delete, and open a local
 * PDF without any upload (which leads to the share screen: how to open the audience window). Each card shows
 * the deck's first page; decks without a stored thumbnail get one rendered in the background,
 * one at a time, and kept, so the next visit renders nothing. A notes file (`.pdfpc` or
 * PowerPoint `.pptx`) dropped or picked with the PDF is read here and kept with the deck;
 * each card can add, replace or remove it later, and shows what reading it found. A deck's
 * recordings (talks and rehearsals recorded in the presenter) are listed on its card with
 * their length and size, to play back or delete (../record/recording-list-view.ts). The
 * card's notes row is markup in ./library/notes-row.ts.
 */
import { $, h, replace } from "../lib/dom.ts";
import { normalizeLiveCode } from "../../../src/shared/live-protocol.ts";
import { formatBytes, formatDate } from "../lib/format.ts";
import { deckSize, slidesOf } from "../lib/deck-size.ts";
import { addNotesToDeck, importLocalPdf, LocalDeckError, sortDroppedFiles, type NotesCheck } from "../lib/local-deck.ts";
import { findingList, notesOutcome, notesRow } from "./library/notes-row.ts";
import { offlineNotice, registerOffline } from "../lib/offline.ts";
import { Renderer } from "../lib/renderer.ts";
import { downloadDeck, inkForExport } from "../presenter/export.ts";
import { needsThumbnail, storeThumbnail } from "../lib/thumbnail.ts";
import { DeckStore, StorageError, type DeckRecord, type ThumbnailRecord } from "../storage/deck-store.ts";
import { exportDeck, PICKERS, showRecording, type RecordingInput } from "../export/library-recording.ts";
import { mountExportPanel, type ExportPanel, type ExportPanelOptions } from "../export/export-panel.ts";
import { storedRecording } from "../export/recording-source.ts";
import type { RecordingRecord } from "../storage/schema.ts";
import { recordingsInProgress, stillRecording } from "../record/recording-lock.ts";
import { recordingList } from "../record/recording-list-view.ts";

const list = $("#decks") as HTMLUListElement;
const empty = $("#empty");
const notices = $("#notices");
const fileInput = $("#file-input") as HTMLInputElement;
const share = $("#share");
let store: DeckStore;
/** blob: URLs of the thumbnails on screen, by deck id; revoked when their card goes. */
let thumbUrls = new Map<string, string>();
/** Decks waiting for a thumbnail, rendered one at a time by a worker that exists only meanwhile. */
const thumbQueue: string[] = [];
let thumbsRunning = false;
/**
 * What reading each deck's latest notes file found, shown on its card until the page is left
 * (the notes themselves are stored; their findings are for the moment they were added).
 */
const notesChecks = new Map<string, NotesCheck>();

function notice(text: string, kind: "warn" | "error" | "ok" = "error") {
  const el = h("div", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  notices.append(el);
  return el;
}


/** Read a notes file for a stored deck, keep it when accepted, and show what was found. */
async function addNotes(deck: DeckRecord, file: File) {
  const working = notice(`Reading “${file.name}”…`, "ok");
  try {
    const check = await addNotesToDeck(file, deck, store);
    notesChecks.set(deck.id, check);
  } catch (error) {
    if (error instanceof LocalDeckError) notice(error.message);
    else if (error instanceof StorageError) notice(error.kind === "quota" ? "This browser has no room for the notes. Delete decks you no longer need, then try again." : "This browser refuses to store the notes (private window or privacy settings).");
    else {
      console.error(error);
      notice(`“${file.name}” could not be read as notes.`);
    }
  } finally {
    working.remove();
  }
  await refresh();
  list.querySelector<HTMLElement>(`li[data-deck="${CSS.escape(deck.id)}"] .deck-notes`)?.scrollIntoView({ block: "nearest" });
}

function thumbImage(deck: DeckRecord, url: string, record: ThumbnailRecord): HTMLImageElement {
  return h("img", { class: "deck-thumb-img", src: url, alt: "", width: record.width, height: record.height, decoding: "async", "data-thumb": deck.id });
}

/** Recordings by deck, and those some window is writing now: read at each refresh. */
let recordings = new Map<string, RecordingRecord[]>();
let inProgress: Set<string> | null = null;

/**
 * Every file saved from this page, the last one with its bytes (an older one lets its Blob go:
 * an hour's video is 70 MB); the tests read it.
 */
const saved: { file: Blob | null }[] = [];
const onSaved: NonNullable<ExportPanelOptions["onSaved"]> = (file) => {
  for (const older of saved) older.file = null;
  saved.push({ ...file });
};
/** Where Save video and Save audio write: the save dialog; a test picks a file of the origin's own. */
let saveTo: NonNullable<RecordingInput["save"]> = "dialog";
/** Draw every frame, encode and save nothing: the benchmark's baseline (bench/export.ts). */
let dryRun = false;

/** Each listed recording's Save video and Save audio, kept across refreshes: a running export goes on. */
const exportPanels = new Map<string, { panel: ExportPanel; updatedAt: number }>();

function exportOf(record: RecordingRecord): HTMLElement {
  const kept = exportPanels.get(record.id);
  if (kept && (kept.updatedAt === record.updatedAt || kept.panel.element.dataset.export === "running")) return kept.panel.element;
  kept?.panel.destroy();
  const panel = mountExportPanel(h("div"), {
    recording: storedRecording(record),
    deck: () => exportDeck(store, record.deckId),
    pickFile: (name, kind) => PICKERS[saveTo](name, kind),
    onSaved,
    dryRun: () => dryRun,
  });
  exportPanels.set(record.id, { panel, updatedAt: record.updatedAt });
  return panel.element;
}

function recordingsOf(deck: DeckRecord): HTMLElement | null {
  return recordingList(recordings.get(deck.id) ?? [], {
    actions: (r) => [exportOf(r)],
    recordingNow: (r) => stillRecording(r, inProgress, Date.now()),
    delete: async (r) => {
      if (!confirm(`Delete the recording “${r.title}” of “${deck.title}”? This cannot be undone.`)) return;
      await store.recordings.deleteRecording(r.id);
      await refresh();
    },
  });
}

function deckCard(deck: DeckRecord, thumb?: { url: string; record: ThumbnailRecord }): HTMLLIElement {
  const present = `/present/${encodeURIComponent(deck.id)}`;
  const del = h("button", { type: "button", class: "btn btn-small btn-ghost", "aria-label": `Delete ${deck.title}` }, "Delete");
  del.addEventListener("click", async () => {
    if (!confirm(`Delete “${deck.title}” from this browser? You will need the PDF or a new link to present it again.`)) return;
    await store.deleteDeck(deck.id);
    await refresh();
  });
  const source = deck.source === "handoff" ? "From a link" : "From this computer";
  const download = (withInk: boolean) => async () => {
    const bytes = await store.getDeckBytes(deck.id);
    if (!bytes) return notice(`“${deck.title}” is no longer stored in this browser.`);
    const ink = withInk ? inkForExport(await store.getInk(deck.id)) : [];
    // The worker that writes the ink exists only for this download.
    const renderer = ink.length ? new Renderer() : null;
    try {
      await downloadDeck({ bytes, title: deck.title, ink, withInk, renderer });
    } catch {
      notice(`The PDF of “${deck.title}” could not be written. Download it as it came instead.`);
    } finally {
      renderer?.terminate();
    }
  };
  const original = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-download": "original" }, "As it came");
  const withInk = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-download": "ink" }, "With the ink");
  original.addEventListener("click", download(false));
  withInk.addEventListener("click", download(true));
  const downloads = h("details", { class: "deck-download" }, h("summary", { class: "btn btn-small btn-ghost", "aria-label": `Download ${deck.title}` }, "Download"), h("div", { class: "deck-download-menu" }, original, withInk));
  return h(
    "li",
    { class: "deck-card", "data-deck": deck.id },
    h("a", { class: "deck-open", href: present },
      h(
        "span",
        { class: thumb ? "deck-thumb has-image" : "deck-thumb", "aria-hidden": "true" },
        thumb ? thumbImage(deck, thumb.url, thumb.record) : null,
        h("span", { class: "deck-thumb-count" }, String(slidesOf(deck.totalSlides, deck.labels) ?? (deck.totalSlides || "?"))),
      ),
      h("span", { class: "deck-title" }, deck.title),
    ),
    h("p", { class: "deck-meta" }, [deck.totalSlides ? deckSize(deck.totalSlides, slidesOf(deck.totalSlides, deck.labels)) : null, formatBytes(deck.bytes), formatDate(deck.addedAt)].filter(Boolean).join(" · ")),
    h("p", { class: "deck-source" }, source, deck.source === "handoff" && !deck.handoffCompletedAt ? " · claim not confirmed" : ""),
    notesRow(deck, notesChecks.get(deck.id), {
      add: (file) => void addNotes(deck, file),
      remove: async () => {
        if (!confirm(`Remove the notes from “${deck.notes!.filename}” from “${deck.title}”? Notes inside the PDF stay.`)) return;
        notesChecks.delete(deck.id);
        await store.setDeckNotes(deck.id, null);
        await refresh();
      },
    }),
    recordingsOf(deck),
    h("div", { class: "deck-actions" }, h("a", { class: "btn btn-small btn-primary", href: present }, "Present"), downloads, del),
  );
}

/** Put a freshly rendered thumbnail on its card, if the card is still on screen. */
function showThumbnail(deck: DeckRecord, record: ThumbnailRecord) {
  const box = list.querySelector<HTMLElement>(`li[data-deck="${CSS.escape(deck.id)}"] .deck-thumb`);
  if (!box) return;
  const url = URL.createObjectURL(record.image);
  const old = thumbUrls.get(deck.id);
  if (old) URL.revokeObjectURL(old);
  thumbUrls.set(deck.id, url);
  box.querySelector(".deck-thumb-img")?.remove();
  box.prepend(thumbImage(deck, url, record));
  box.classList.add("has-image");
}

/** Render the missing thumbnails, oldest request first, then let the worker go. */
async function renderThumbnails(decks: DeckRecord[]) {
  for (const deck of decks) if (!thumbQueue.includes(deck.id)) thumbQueue.push(deck.id);
  if (thumbsRunning) return;
  thumbsRunning = true;
  let renderer: Renderer | null = null;
  try {
    while (thumbQueue.length) {
      const id = thumbQueue.shift()!;
      try {
        const deck = await store.getDeck(id);
        const bytes = deck ? await store.getDeckBytes(id) : undefined;
        if (!deck || !bytes) continue;
        renderer ??= new Renderer();
        await renderer.open(bytes, { transfer: true });
        const record = await storeThumbnail(renderer, store, id);
        if (record) showThumbnail(deck, record);
      } catch (error) {
        // A deck the worker cannot read keeps its placeholder; presenting it says why.
        console.warn(`No thumbnail for deck ${id}:`, error);
      }
    }
  } finally {
    renderer?.terminate();
    thumbsRunning = false;
  }
  document.body.dataset.thumbnails = "done";
}

async function refresh() {
  const decks = await store.listDecks();
  [recordings, inProgress] = await Promise.all([store.recordings.recordingsByDeck().catch(() => new Map<string, RecordingRecord[]>()), recordingsInProgress()]);
  // A deleted recording's export is cancelled and its panel forgotten.
  const listed = new Set([...recordings.values()].flat().map((r) => r.id));
  for (const [id, kept] of exportPanels) {
    if (listed.has(id)) continue;
    kept.panel.destroy();
    exportPanels.delete(id);
  }
  const thumbs = await store.listThumbnails().catch(() => new Map<string, ThumbnailRecord>());
  const previous = thumbUrls;
  thumbUrls = new Map();
  const missing: DeckRecord[] = [];
  const cards = decks.map((deck) => {
    const record = thumbs.get(deck.id);
    if (needsThumbnail(record)) {
      missing.push(deck);
      return deckCard(deck);
    }
    const url = URL.createObjectURL(record!.image);
    thumbUrls.set(deck.id, url);
    return deckCard(deck, { url, record: record! });
  });
  replace(list, ...cards);
  for (const url of previous.values()) URL.revokeObjectURL(url);
  empty.hidden = decks.length > 0;
  if (missing.length) {
    document.body.dataset.thumbnails = "rendering";
    void renderThumbnails(missing);
  } else if (!thumbsRunning) document.body.dataset.thumbnails = "done";
  // The usage line follows when the browser has counted: the list does not wait for it.
  void showUsage(decks.length);
}

/** The last usage line asked for: an earlier count that answers late is not shown over it. */
let usageAsked = 0;

async function showUsage(decks: number) {
  const asked = ++usageAsked;
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  if (asked !== usageAsked) return;
  if (estimate?.usage !== undefined && estimate.quota) {
    replace($("#storage-usage"), `${decks} deck${decks === 1 ? "" : "s"} · using ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} available to this site`);
  }
}

function showShare(deck: DeckRecord, notes: NotesCheck | null) {
  replace($("#share-deck"), `“${deck.title}” · ${deckSize(deck.totalSlides, slidesOf(deck.totalSlides, deck.labels))} · stored in this browser, nothing uploaded`);
  const notesEl = $("#share-notes");
  if (notes) replace(notesEl, notesOutcome(notes, "share"), findingList(notes));
  else replace(notesEl, deck.notes ? `With the notes from “${deck.notes.filename}”.` : "");
  notesEl.hidden = !notes && !deck.notes;
  ($("#share-present") as HTMLAnchorElement).href = `/present/${encodeURIComponent(deck.id)}`;
  $("#share-audience").onclick = () => {
    window.open(`/view/${encodeURIComponent(deck.id)}`, `deckhand-audience-${deck.id}`, "popup,width=1280,height=720");
  };
  share.hidden = false;
  share.scrollIntoView({ behavior: "smooth", block: "center" });
  share.focus();
}

/** Open what was dropped or picked: a PDF, perhaps with its notes file. */
async function openFiles(files: File[]) {
  if (!files.length) return;
  const { pdf, notes, extra } = await sortDroppedFiles(files);
  if (!pdf) {
    if (notes && files.length === 1) {
      notice(`“${notes.name}” is a notes file. Choose it together with its PDF (or drop both at once), or use “Add notes…” on a stored deck.`, "warn");
      return;
    }
    // Not a PDF: the import says so in its own words.
    return openLocal(files[0]!, null);
  }
  if (extra.length) notice(`One PDF and one notes file are opened at a time; ${extra.map((f) => `“${f.name}”`).join(", ")} ${extra.length === 1 ? "was" : "were"} left out.`, "warn");
  await openLocal(pdf, notes);
}

async function openLocal(file: File, notesFile: File | null) {
  const working = notice(`Opening “${file.name}”${notesFile ? ` with “${notesFile.name}”` : ""}…`, "ok");
  try {
    const { deck, notes } = await importLocalPdf(file, store, notesFile);
    working.remove();
    if (notes) notesChecks.set(deck.id, notes);
    await refresh();
    showShare((await store.getDeck(deck.id)) ?? deck, notes);
  } catch (error) {
    working.remove();
    if (error instanceof LocalDeckError) {
      const el = notice(error.message);
      if (error.code) el.dataset.code = error.code;
    }
    else if (error instanceof StorageError) notice(error.kind === "quota" ? "This browser has no room for the deck. Delete decks you no longer need, then try again." : "This browser refuses to store decks (private window or privacy settings). Use a normal window.");
    else notice("The PDF could not be opened.");
  }
}

async function main() {
  void registerOffline().then((status) => {
    const el = offlineNotice(status);
    if (el) notices.prepend(el);
  });
  // Where the page is on its way to ready, for whoever waits on it (a test that timed out names the step).
  document.body.dataset.boot = "opening storage";
  try {
    store = await DeckStore.open();
  } catch {
    notice("This browser refuses to store decks here (a private window, or storage turned off). Open deckhand in a normal window.");
    return;
  }
  $("#open-local").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", () => {
    const files = Array.from(fileInput.files ?? []);
    fileInput.value = "";
    void openFiles(files);
  });
  const hint = $("#drop-hint");
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    hint.hidden = false;
  });
  document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) hint.hidden = true;
  });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    hint.hidden = true;
    void openFiles(Array.from(e.dataTransfer?.files ?? []));
  });
  $("#reset-storage").addEventListener("click", async () => {
    if (!confirm("Erase every deck stored in this browser? This cannot be undone.")) return;
    await store.hardReset();
    store = await DeckStore.open();
    await refresh();
  });
  document.body.dataset.boot = "listing decks";
  await refresh();
  // A recording handed over whole (a test's) is listed under its deck with Save video and Save
  // audio; `saveTo` points every panel's saving at a file of the origin's own, `dryRun` makes
  // every panel's export draw and save nothing.
  (window as unknown as { __deckhand: unknown }).__deckhand = {
    saved,
    exportRecording: (input: RecordingInput) => !!showRecording(list, input, store, onSaved),
    saveTo: (where: NonNullable<RecordingInput["save"]>) => void (saveTo = where),
    dryRun: (on: boolean) => void (dryRun = on),
    // The recordings store, as the presenter's Record control writes through it (the benchmark stores its talk so).
    recordings: () => store.recordings,
  };
  document.body.dataset.boot = "ready";
  document.body.dataset.ready = "true";
}

void main();

// "Join a talk": a typed code, in any case, goes to its viewer page.
$("#join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = normalizeLiveCode(($("#join-code") as HTMLInputElement).value);
  if (code) location.assign(`/live/${code}`);
  else replace($("#join-status"), "A talk code is 6 letters and digits, like K7Q4PZ. Check it and try again.");
});
