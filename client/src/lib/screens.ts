/**
 * @module client/lib/screens
 * The browser side of ../model/screen-areas.ts: the Window Management API where it exists
 * (Chromium: `getScreenDetails`, permission "window-management", asked once — the browser
 * remembers the answer, and a refusal is never asked again), nothing elsewhere.
 */
import type { ScreenArea } from "../model/screen-areas.ts";

interface DetailedScreen extends ScreenArea {
  availLeft: number;
  availTop: number;
  availWidth: number;
  availHeight: number;
}

interface ScreenDetails {
  screens: DetailedScreen[];
  currentScreen: DetailedScreen;
}

type WithScreens = Window & { getScreenDetails?: () => Promise<ScreenDetails> };

export function canPlaceWindows(): boolean {
  return typeof (window as WithScreens).getScreenDetails === "function";
}

/** Whether asking would show a prompt the user already answered "no" to. */
async function refused(): Promise<boolean> {
  try {
    const status = await navigator.permissions.query({ name: "window-management" as PermissionName });
    return status.state === "denied";
  } catch {
    // Browsers that do not know the permission name: asking is the only way to find out.
    return false;
  }
}

export interface Screens {
  screens: ScreenArea[];
  current: ScreenArea;
  /** The API's own screen objects, for requestFullscreen({ screen }). */
  raw: unknown[];
}

/** The screens, or null when the browser cannot tell or the user said no. */
export async function readScreens(): Promise<Screens | null> {
  const get = (window as WithScreens).getScreenDetails;
  if (!get || (await refused())) return null;
  try {
    const details = await get.call(window);
    const area = (s: DetailedScreen): ScreenArea => ({ left: s.availLeft, top: s.availTop, width: s.availWidth, height: s.availHeight, isPrimary: s.isPrimary, label: s.label });
    return { screens: details.screens.map(area), current: area(details.currentScreen), raw: details.screens };
  } catch {
    return null;
  }
}
