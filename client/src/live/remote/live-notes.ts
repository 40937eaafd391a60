/**
 * @module client/live/remote/live-notes
 * The phone remote's copy of the notes file the presenter sent with the deck (GET
 * /api/live/{code}/notes, the normalised `.pdfpc`): asked with the control secret in a header
 * (never in the URL, which proxies log), only when the talk's facts say there is one, so the
 * remote opens the deck with it as the presenter does — same notes, same slides grouped by
 * its overlays, same hidden pages and end slide. Not kept: the remote needs the network for
 * its socket anyway, and the notes are small.
 */

/** What became of the request: the text, none to have, the secret refused, or the talk over. */
export type LiveNotes = { kind: "notes"; pdfpc: string } | { kind: "none" } | { kind: "refused" } | { kind: "ended" };

/** Tries before the remote opens without the notes file (the PDF's own notes still show). */
const TRIES = 3;
/** Wait before trying again after a failure that may pass (a network blip, a 5xx). */
const RETRY_MS = 1000;

/** The notes of talk `code` for the remote holding `secret`; `retryMs`: the first wait before trying again. */
export async function liveNotes(code: string, secret: string, retryMs = RETRY_MS): Promise<LiveNotes> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`/api/live/${encodeURIComponent(code)}/notes`, { headers: { "x-control-secret": secret }, cache: "no-store", credentials: "omit" });
      if (response.ok) return { kind: "notes", pdfpc: await response.text() };
      await response.body?.cancel();
      if (response.status === 401 || response.status === 403) return { kind: "refused" };
      if (response.status === 410) return { kind: "ended" };
      if (response.status === 404 || (response.status < 500 && response.status !== 429)) return { kind: "none" };
    } catch {
      // The network: tried again below.
    }
    if (attempt >= TRIES) return { kind: "none" };
    await new Promise((resolve) => setTimeout(resolve, retryMs * attempt));
  }
}
