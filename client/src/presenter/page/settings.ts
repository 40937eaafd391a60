/**
 * @module client/presenter/page/settings
 * This deck's settings in the `?` panel: how its pages split into slide and notes (kept with
 * the deck, followed by the audience and live viewers) and the speaker's own timer; and the
 * notes pane's text/picture toggle (per browser).
 */
import type { NotesPosition } from "../../../../src/deck/notes-layout.ts";
import type { TimerSettings } from "../../../../src/deck/sidecar/types.ts";
import { $, replace } from "../../lib/dom.ts";
import { notesPositionOf, parseNotesPosition, readTimerInputs } from "../deck-settings.ts";
import { pageSizes } from "../views/slide-view.ts";
import { renderTimer } from "../views/timer-view.ts";
import { EMPTY_EXTRAS } from "../../worker/protocol.ts";
import { notice, timerEls } from "./elements.ts";
import { savePreferencesNow } from "./persistence.ts";
import { renderPaceLine } from "./pace.ts";
import { overviewView, presenter } from "./presenter.ts";
import { applyTalk, renderDeckSettings, renderNotesPane, showPage } from "./render.ts";
import { notesFile, session, timerSettings } from "./session.ts";
import { currentView, nextView, notesView, stepView } from "./views.ts";

function toggleNotesPicture() {
  session.notesPicture = !session.notesPicture;
  notesView.reset();
  renderNotesPane(presenter.current);
  const s = presenter.current;
  savePreferencesNow(s);
}

/**
 * Split the pages another way (null: as the deck says): kept with the deck, applied here, in
 * the audience window and for live viewers (the state carries it); everything re-renders.
 */
async function changeNotesPosition(override: NotesPosition | null) {
  if (!session.renderer || override === session.notesOverride) return;
  session.notesOverride = override;
  document.body.dataset.notesOverride = override ?? "";
  const kept = session.store.setNotesPosition(session.deck.id, override).then(() => (document.body.dataset.savedNotesPosition = override ?? ""));
  const result = await session.renderer.setLayout(override);
  session.sizes = pageSizes(result.firstPage);
  void session.store.setDeckLayout(session.deck.id, { pageSize: result.firstPage, labels: session.layout.labels }).catch(() => {});
  // A zoom region was in the old half's coordinates.
  const state = presenter.current;
  presenter.set({ ...state, notesPosition: notesPositionOf(result.layout), overlays: state.overlays.zoom ? { ...state.overlays, zoom: null } : state.overlays });
  currentView.clear();
  nextView.clear();
  stepView.clear();
  void showPage(presenter.current.page);
  if (presenter.current.panel === "overview" && session.sizes) overviewView.open(session.layout, session.renderer, session.sizes, presenter.current.page);
  session.extras = await session.renderer.extras(notesFile()).catch(() => EMPTY_EXTRAS);
  applyTalk();
  notesView.reset();
  renderNotesPane(presenter.current);
  renderDeckSettings();
  document.body.dataset.notesPosition = presenter.current.notesPosition ?? "";
  await kept.catch(() => notice("This browser refused to keep the notes setting; it holds until the window closes.", "warn", "deck-settings"));
}

async function changeTimerSettings(settings: TimerSettings | undefined) {
  session.ownTimer = settings;
  renderTimer(timerEls(), presenter.current.timer, timerSettings());
  renderPaceLine();
  renderDeckSettings();
  try {
    await session.store.setTimerSettings(session.deck.id, settings ?? null);
    document.body.dataset.savedTimerSettings = JSON.stringify(settings ?? {});
    replace($("#timer-settings-status"), settings ? "Timer set for this deck." : "The timer follows the deck again.");
  } catch {
    replace($("#timer-settings-status"), "This browser refused to keep the timer setting; it holds until the window closes.");
  }
}

export function wireDeckSettings() {
  $("#btn-notes-picture").addEventListener("click", toggleNotesPicture);
  const select = $("#setting-notes-position") as HTMLSelectElement;
  select.addEventListener("change", () => void changeNotesPosition(parseNotesPosition(select.value)));
  const form = $("#timer-settings") as HTMLFormElement;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const read = readTimerInputs({
      duration: ($("#setting-duration") as HTMLInputElement).value,
      endTime: ($("#setting-end-time") as HTMLInputElement).value,
      lastMinutes: ($("#setting-last-minutes") as HTMLInputElement).value,
    });
    if (!read.ok) return replace($("#timer-settings-status"), read.message);
    void changeTimerSettings(read.settings);
  });
  $("#timer-settings-clear").addEventListener("click", () => void changeTimerSettings(undefined));
}
