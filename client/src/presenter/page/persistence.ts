/**
 * @module client/presenter/page/persistence
 * What the presenter window keeps, and where: with the deck in IndexedDB (page, timer,
 * bookmark, slide times, what the talk is paced against, ink per page) and per browser (notes size, wheel, notes picture).
 * Called on every change before painting: the sooner a write starts, the less a crash or a
 * reload loses.
 */
import { savePreferences } from "../preferences.ts";
import type { PresenterState } from "../state.ts";
import { notice } from "./elements.ts";
import { presenter } from "./presenter.ts";
import { savedInk, session } from "./session.ts";

/** The per-browser preferences as they are now (the notes picture is not part of the state). */
export function savePreferencesNow(state: PresenterState) {
  savePreferences({ notesScale: state.notesScale, wheelNavigation: state.wheelNavigation, notesPicture: session.notesPicture });
}

/** Store the pages whose ink changed (each page is its own record). */
function saveInk(state: PresenterState) {
  for (const [key, strokes] of Object.entries(state.ink)) {
    const page = Number(key);
    if (savedInk.get(page) === strokes) continue;
    savedInk.set(page, strokes);
    void session.store.putInk(session.deck.id, page, strokes).then(() => {
      if (presenter.current.ink[page] === strokes) document.body.dataset.savedInk = String(Object.values(presenter.current.ink).reduce((n, list) => n + list.length, 0));
    }, () => notice("This browser refused to store the ink (storage full?); it stays until the window closes.", "warn", "ink-storage"));
  }
}

/** Write where the talk is (its `updatedAt` is also when this window was last seen: timer-presence). */
export function saveProgress(state: PresenterState) {
  void session.store.saveProgress(session.deck.id, state.page, state.timer, { bookmark: state.bookmark, slideTimes: state.slideTimes, pace: state.pace }).then(() => {
    if (presenter.current.timer === state.timer) document.body.dataset.savedTimer = state.timer.status;
    if (presenter.current.page === state.page) document.body.dataset.savedPage = String(state.page);
    if (presenter.current.pace === state.pace) document.body.dataset.savedPace = state.pace;
  }, () => {});
}

export function save(state: PresenterState, previous: PresenterState) {
  if (session.deck && (state.page !== previous.page || state.timer !== previous.timer || state.bookmark !== previous.bookmark || state.slideTimes !== previous.slideTimes || state.pace !== previous.pace)) saveProgress(state);
  if (session.deck && state.ink !== previous.ink) saveInk(state);
  if (state.notesScale !== previous.notesScale || state.wheelNavigation !== previous.wheelNavigation) {
    savePreferencesNow(state);
  }
}
