/// <reference lib="webworker" />
/**
 * @module client/sw
 * The service worker: precaches the app shell so the library, presenter and audience view
 * load with no network. Decks are not here — they live in IndexedDB, which an update of this
 * worker never touches. Each build has its own cache; activating a new one deletes only
 * older shell caches.
 */
import { isImmutableAsset, isVersionedAsset, shellFor } from "./shell.ts";

declare const self: ServiceWorkerGlobalScope;

const PREFIX = "deckhand-shell-";
const CACHE = PREFIX + __DH_VERSION__;
/** How long a page navigation waits for the network before using the cached shell. */
const NAVIGATION_TIMEOUT_MS = 2500;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // The first page has just loaded much of the shell itself (mupdf's 4.7 MB of WASM among
      // it): a versioned file is taken from the browser's HTTP cache when it is there, not
      // downloaded twice. Page shells and the icon, whose URLs outlive a build, are fetched anew.
      await cache.addAll(__DH_PRECACHE__.map((url) => new Request(url, { cache: isVersionedAsset(url) ? "default" : "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

async function navigate(request: Request, shell: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const network = fetch(request);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), NAVIGATION_TIMEOUT_MS));
  try {
    const response = await Promise.race([network, timeout]);
    if (response && response.ok) return response;
  } catch {
    // Offline: fall through to the cached shell.
  }
  const cached = await cache.match(shell);
  if (cached) return cached;
  return network;
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    const shell = shellFor(url.pathname);
    if (shell) event.respondWith(navigate(request, shell));
    return;
  }
  if (isImmutableAsset(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});
