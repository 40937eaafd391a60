/**
 * @module client/pages/present
 * /present/{deck} — the presenter window. It wires the pieces together and holds no
 * presenting logic of its own: the state and its named actions live in client/presenter/,
 * the key map in client/presenter/keymap.ts (the user's own from keymap-store.ts), and the
 * views render the state. Keys, buttons, the stage tools on the slide, swipes, the wheel and
 * the audience window's clicker all dispatch actions; every change is rendered, saved with
 * the deck (page, timer, bookmark, slide times, ink) or per browser (notes size, wheel,
 * layout, keys), and — the audience part only — sent to the audience window. Everything
 * comes from IndexedDB and the render worker, so it works with no network.
 *
 * A deck whose pages carry their notes (Beamer's notes on a second screen) is split by the
 * render worker: every slide shown here and on every other screen is the slide half. The
 * notes pane shows the notes half's text (or, toggled, its picture); the deck's layout can be
 * overridden per deck (kept with it), and the audience and live viewers follow the override.
 *
 * The window's code is in client/presenter/page/: boot (start-up and what follows every
 * change), render, input, persistence, settings (this deck's notes layout and timer),
 * effects, downloads, and the session they share.
 */
import { startPresenter } from "../presenter/page/boot.ts";

void startPresenter();
