/**
 * @module client/presenter/audience-window
 * The audience window as the presenter opens and places it: a pop-up opened at once (it
 * needs the click that asked for it); where the browser can place windows (Window Management
 * API) moved onto another screen, covering it, and lent the click's permission to go full
 * screen there (Capability Delegation); "swap" exchanges its screen with the presenter's.
 * Without the API — or with its permission refused — it stays today's pop-up to drag.
 */
import type { Channel } from "./channel.ts";
import { canPlaceWindows, readScreens, type Screens } from "../lib/screens.ts";
import { pickAudienceScreen, popupFeatures, sameScreen, swapTargets, type ScreenArea } from "../model/screen-areas.ts";

export type Notify = (text: string, kind: "warn" | "info", id: string) => void;

/** The screen a window is on, by its centre. */
function screenOf(screens: Screens, win: Window): ScreenArea | null {
  const x = win.screenX + win.outerWidth / 2;
  const y = win.screenY + win.outerHeight / 2;
  return screens.screens.find((s) => x >= s.left && x < s.left + s.width && y >= s.top && y < s.top + s.height) ?? null;
}

export class AudienceWindow {
  private win: Window | null = null;

  constructor(
    private readonly deckId: string,
    private readonly channel: () => Channel | null,
    private readonly notify: Notify,
  ) {}

  async open(): Promise<void> {
    const id = this.deckId;
    const win = window.open(`/view/${encodeURIComponent(id)}`, `deckhand-audience-${id}`, popupFeatures(null));
    if (!win) return this.notify(`The browser blocked the audience window. Allow pop-ups for this site, or open /view/${id} in a new window.`, "warn", "audience-blocked");
    this.win = win;
    const screens = canPlaceWindows() ? await readScreens() : null;
    const target = screens ? pickAudienceScreen(screens.screens, screens.current) : null;
    if (!target) return this.notify("Audience window opened: move it to the projector, then click it (or press Shift+F there) for full screen.", "info", "audience-hint");
    this.place(target);
    document.body.dataset.audienceScreen = target.label || `${target.left},${target.top}`;
    this.notify(`Audience window placed on the other screen${target.label ? ` (${target.label})` : ""}. If it is not full screen yet, click it once.`, "info", "audience-hint");
  }

  /** The audience window takes this screen; this window goes full screen on the audience's. */
  async swap(): Promise<void> {
    const win = this.win;
    if (!win || win.closed) return this.notify("Open the audience window first (A), then swap.", "warn", "swap");
    const screens = await readScreens();
    const audienceScreen = screens ? screenOf(screens, win) : null;
    if (!screens || !audienceScreen || sameScreen(audienceScreen, screens.current)) {
      return this.notify("Swapping needs a browser that can place windows (Chrome or Edge, with the window-management permission) and two screens. Drag the windows instead.", "warn", "swap");
    }
    const targets = swapTargets(screens.current, audienceScreen);
    this.place(targets.audience);
    const raw = screens.raw[screens.screens.findIndex((s) => sameScreen(s, targets.presenter))];
    void document.documentElement.requestFullscreen?.({ screen: raw } as FullscreenOptions).catch(() => {});
  }

  /** Move the audience window onto a screen and ask it to fill it (it goes full screen itself). */
  private place(target: ScreenArea): void {
    try {
      this.win?.moveTo(target.left, target.top);
      this.win?.resizeTo(target.width, target.height);
    } catch {
      // A window the browser will not move: the audience moves itself on the message below.
    }
    this.channel()?.post({ type: "place", placement: { left: target.left, top: target.top, width: target.width, height: target.height } });
    // Lend this click's permission to go full screen (Capability Delegation, Chromium).
    try {
      (this.win?.postMessage as (m: unknown, o: object) => void)?.call(this.win, { type: "deckhand-fullscreen" }, { targetOrigin: location.origin, delegate: "fullscreen" });
    } catch {
      // No delegation in this browser: a click in the audience window does it.
    }
  }
}
