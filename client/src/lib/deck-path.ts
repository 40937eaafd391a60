/**
 * @module client/lib/deck-path
 * The deck id in the presenter's and the audience window's address.
 */

/** The deck id of `/present/{deck}` and `/view/{deck}`. */
export function deckIdFromPath(pathname: string = location.pathname): string {
  return decodeURIComponent(pathname.split("/")[2] ?? "");
}
