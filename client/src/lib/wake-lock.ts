/**
 * @module client/lib/wake-lock
 * Keep the screen on while presenting (Screen Wake Lock API). The browser drops the lock
 * whenever the page is hidden, so it is asked for again each time the page shows; where the
 * API is missing or refuses (no user gesture yet, power saving), presenting goes on and the
 * page says so in `data-wake-lock`.
 */

type Sentinel = { released: boolean; addEventListener(type: "release", fn: () => void): void };
type WithWakeLock = Navigator & { wakeLock?: { request(type: "screen"): Promise<Sentinel> } };

export function keepScreenOn(report: (status: "on" | "unavailable" | "refused") => void): void {
  const api = (navigator as WithWakeLock).wakeLock;
  if (!api) return report("unavailable");
  let lock: Sentinel | null = null;
  const acquire = async () => {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    try {
      lock = await api.request("screen");
      report("on");
      lock.addEventListener("release", () => {
        if (document.visibilityState === "visible") report("refused");
      });
    } catch {
      report("refused");
    }
  };
  document.addEventListener("visibilitychange", () => void acquire());
  // Some browsers grant the lock only after a user gesture: try again at the first one.
  document.addEventListener("pointerdown", () => void acquire(), { once: true });
  document.addEventListener("keydown", () => void acquire(), { once: true });
  void acquire();
}
