/**
 * @module client/model/screen-areas
 * Where the audience window goes when the browser can tell (the Window Management API,
 * `getScreenDetails`): onto a screen other than the presenter's, covering it; and what
 * "swap" means — each window takes the other's screen. Pure choices over plain screen
 * data, so they are tested without a second monitor.
 */

export interface ScreenArea {
  left: number;
  top: number;
  width: number;
  height: number;
  isPrimary?: boolean;
  label?: string;
}

/** The screen for the audience: not the presenter's; an external one before the built-in. */
export function pickAudienceScreen(screens: readonly ScreenArea[], current: ScreenArea | null): ScreenArea | null {
  const others = screens.filter((s) => !current || !sameScreen(s, current));
  if (!others.length) return null;
  return others.find((s) => !s.isPrimary) ?? others[0]!;
}

export function sameScreen(a: ScreenArea, b: ScreenArea): boolean {
  return a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;
}

/** window.open features that put a popup over the whole of `screen`. */
export function popupFeatures(screen: ScreenArea | null): string {
  if (!screen) return "popup,width=1280,height=720";
  return `popup,left=${screen.left},top=${screen.top},width=${screen.width},height=${screen.height}`;
}

/** Swap: the audience goes to the presenter's screen, the presenter to the audience's. */
export function swapTargets(presenter: ScreenArea, audience: ScreenArea): { presenter: ScreenArea; audience: ScreenArea } {
  return { presenter: audience, audience: presenter };
}
