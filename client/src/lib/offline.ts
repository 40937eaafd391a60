/**
 * @module client/lib/offline
 * Registers the service worker and says plainly when offline mode cannot work: browsers
 * give service workers (and crypto.subtle) only to secure contexts — https or localhost.
 */
import { h } from "./dom.ts";

export type OfflineStatus = "ready" | "installing" | "insecure" | "unsupported" | "failed";

export async function registerOffline(): Promise<OfflineStatus> {
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator)) return "unsupported";
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    if (registration.active) return "ready";
    return "installing";
  } catch {
    // Offline, the update check of sw.js fails — but an installed worker still serves us.
    const existing = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
    return existing?.active ? "ready" : "failed";
  }
}

/** Resolves once a service worker controls this page or is active (max `ms`). */
export async function offlineReady(ms = 15000): Promise<boolean> {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return false;
  const ready = navigator.serviceWorker.ready.then(() => true);
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms));
  return Promise.race([ready, timeout]);
}

/** A banner explaining why offline mode is off, or null when it works. */
export function offlineNotice(status: OfflineStatus): HTMLElement | null {
  if (status === "ready" || status === "installing") return null;
  const host = location.host;
  const text =
    status === "insecure"
      ? `Offline mode is not available: this page was opened over plain http on ${host}, and browsers allow offline storage of the app only over https or on localhost. Your deck is still stored in this browser, but reloading without a network will not work. Ask for an https link (deckhand serve --tls-cert …) to present offline.`
      : status === "unsupported"
        ? "Offline mode is not available: this browser does not support service workers. Keep the network on while presenting."
        : "Offline mode could not be set up in this browser. Keep the network on while presenting.";
  return h("div", { class: "notice notice-warn", role: "status" }, h("strong", {}, "No offline mode. "), text);
}
