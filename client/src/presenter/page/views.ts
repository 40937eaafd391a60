/**
 * @module client/presenter/page/views
 * The views of the presenter window that need nothing but the session: the three slide views
 * (current, next, next step), the notes, the stage tools' overlay and the key table.
 */
import { $ } from "../../lib/dom.ts";
import { saveKeymap } from "../keymap-store.ts";
import { KeysView } from "../views/keys-view.ts";
import { NotesView } from "../views/notes-view.ts";
import { OverlayView } from "../views/overlay-view.ts";
import { SlideView } from "../views/slide-view.ts";
import { els } from "./elements.ts";
import { session, storage } from "./session.ts";

export const currentView = new SlideView(els.currentFrame, els.currentBox, els.current, () => session.renderer, () => session.sizes, 100);
export const nextView = new SlideView(els.nextFrame, els.nextBox, els.next, () => session.renderer, () => session.sizes, 90);
// pdfpc's "next overlay" preview: what the next click reveals on this slide.
export const stepView = new SlideView(els.stepFrame, els.stepBox, els.step, () => session.renderer, () => session.sizes, 80);
export const notesView = new NotesView($("#notes"));
// The laser dot is drawn on the audience window only; this window aims with a crosshair.
export const overlayView = new OverlayView(els.currentFrame, els.mediaLayer, $("#zoom-box"), false);
export const keysView = new KeysView({
  list: $("#keys"),
  status: $("#keys-status"),
  digitTools: $("#setting-digit-tools") as HTMLInputElement,
  bindings: () => session.bindings,
  change: (next) => {
    session.bindings = next;
    saveKeymap(storage, next);
  },
});
