/**
 * @module client/presenter/movie-notice
 * What the speaker is told before the talk about the deck's movies that cannot play: those
 * (Beamer's `\movie`, a Launch or `run:` link) naming a file beside the PDF that the deck does
 * not carry. pdfpc plays them from the folder the PDF sits in; a handed-over deck has no such
 * folder, so the projector will show their posters. Said once, when the deck's extras arrive,
 * with the slide each is on and what to do.
 */
import type { SlideMedia } from "../../../src/deck/sidecar/types.ts";

/** The sentence for the notice above the stage, or null when every movie of the deck can play. */
export function missingMoviesNotice(media: readonly SlideMedia[], slideName: (page: number) => string): string | null {
  const missing = media.filter((m) => m.movie && !m.movie.inDeck);
  if (!missing.length) return null;
  const list = missing.map((m) => `“${m.movie!.file}” (${slideName(m.slide)})`);
  const named = list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
  const one = missing.length === 1;
  return `${one ? "A movie" : `${missing.length} movies`} of this deck cannot play: ${named} ${one ? "is a file" : "are files"} beside the PDF that the deck does not carry. The audience will see ${one ? "its poster" : "their posters"} instead. To play ${one ? "it" : "them"}, attach the file${one ? "" : "s"} to the PDF under the same name (the check report says how) and present the deck again.`;
}
