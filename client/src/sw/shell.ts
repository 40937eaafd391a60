/**
 * @module client/sw/shell
 * Which cached page shell answers a URL offline: every /present/{deck} is the same HTML,
 * cached once under /present/_ (and so on for the other page families, the player's
 * /play/{recording} too).
 */
export function shellFor(pathname: string): string | null {
  if (pathname === "/" || pathname === "/index.html") return "/";
  if (pathname === "/check") return "/check";
  for (const prefix of ["/present/", "/view/", "/start/", "/play/"]) {
    if (pathname.startsWith(prefix) && pathname.length > prefix.length) return prefix + "_";
  }
  return null;
}

/**
 * Content-hashed bundles and the versioned mupdf folder: the server marks them immutable, so a
 * copy in the browser's HTTP cache is byte for byte the file the URL names.
 */
export function isVersionedAsset(pathname: string): boolean {
  return pathname.startsWith("/assets/") || pathname.startsWith("/vendor/");
}

/** Requests the service worker answers from its cache first (content-hashed or versioned). */
export function isImmutableAsset(pathname: string): boolean {
  return isVersionedAsset(pathname) || pathname === "/favicon.svg";
}
