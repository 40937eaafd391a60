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
  const why: Array<string | HTMLElement> =
    status === "insecure"
      ? [
          `This page was opened over plain http on ${host}, and browsers keep an app available offline only over https or on localhost. Your deck is still stored in this browser and presents while the network is up, but reloading without a network will not work. To present offline, ask for an https link (`,
          h("code", { class: "nowrap" }, "deckhand serve --tls-cert …"),
          ").",
        ]
      : status === "unsupported"
        ? ["This browser does not support service workers. Keep the network on while presenting."]
        : ["It could not be set up in this browser. Keep the network on while presenting."];
  return h("div", { class: "notice notice-warn", role: "status", "data-offline": status }, h("strong", {}, "Offline mode is not available. "), ...why);
}
