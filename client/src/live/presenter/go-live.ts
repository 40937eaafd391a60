/**
 * @module client/live/presenter/go-live
 * The HTTP half of going live, apart from the panel that drives it (./presenter-live.ts):
 * upload this browser's copy of the deck — with its notes file, when one is kept with it, so
 * the phone remote reads the deck as the presenter does — to `POST /api/live` with a
 * credential (the claim's live grant while it lasts, or an access token the speaker types),
 * turn the answer into the session record kept with the deck, and ask for a token in the
 * panel's own form. The notes go as they are at that moment: notes added in the library while
 * the talk is live reach the remote at the next go-live.
 */
import type { LiveCreated } from "../../../../src/shared/live-created.ts";
import { readProblem } from "../../lib/problem.ts";
import type { DeckRecord, DeckStore, LiveSessionRecord } from "../../storage/deck-store.ts";

/** The claim's live grant while it lasts: the server takes it instead of an access token. */
export function liveGrantOf(deck: DeckRecord): string | null {
  return deck.liveGrant && Date.parse(deck.liveGrant.expiresAt) > Date.now() ? deck.liveGrant.grant : null;
}

/**
 * Upload the stored PDF (never a URL: the server gets the very bytes this browser presents),
 * and its notes file as the normalised `.pdfpc` kept with it. A notes file the server refuses
 * (a smaller limit than this browser's, say) does not keep the talk from going live: it goes
 * again without, and the remote shows the notes the PDF carries.
 */
export async function uploadDeck(store: DeckStore, deck: DeckRecord, authorization: string | null): Promise<Response> {
  const bytes = await store.getDeckBytes(deck.id);
  if (!bytes) throw new Error("This deck's PDF is no longer stored in this browser.");
  const send = (notes: DeckRecord["notes"]) => {
    const form = new FormData();
    form.append("file", new File([bytes], `${deck.filename || deck.title}.pdf`.replace(/(\.pdf)+$/i, ".pdf"), { type: "application/pdf" }));
    if (notes) form.append("notes", new File([notes.pdfpc], pdfpcName(notes.filename), { type: "application/json" }));
    return fetch("/api/live", { method: "POST", body: form, headers: authorization ? { Authorization: authorization } : {}, credentials: "omit", cache: "no-store" });
  };
  const response = await send(deck.notes);
  if (deck.notes && (response.status === 413 || response.status === 422) && (await readProblem(response.clone())).code?.startsWith("NOTES_FILE_")) return send(undefined);
  return response;
}

/** The name of the normalised notes sent for `filename` (a .pptx's notes are a .pdfpc by now). */
function pdfpcName(filename: string): string {
  return `${filename.replace(/\.(pdfpc|pptx)$/i, "") || "notes"}.pdfpc`;
}

/** The session as kept with the deck (IndexedDB), from the server's answer to the upload. */
export async function sessionRecordOf(deck: DeckRecord, response: Response): Promise<LiveSessionRecord> {
  const body = (await response.json()) as LiveCreated;
  return {
    deckId: deck.id,
    code: body.code,
    presenterSecret: body.presenterSecret,
    viewerUrl: body.viewerUrl,
    controlUrl: body.controlUrl,
    expiresAt: body.expiresAt,
    allowDownload: body.allowDownload ?? false,
    startedAt: Date.now(),
  };
}

/** Show the token form, focused and empty; a submitted token goes to `onToken`, Cancel to `onCancel`. */
export function promptToken(form: HTMLFormElement, input: HTMLInputElement, onToken: (token: string) => void, onCancel: () => void): void {
  form.hidden = false;
  input.value = "";
  input.focus();
  const close = () => {
    form.hidden = true;
    form.removeEventListener("submit", submit);
    form.removeEventListener("reset", cancel);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const token = input.value.trim();
    close();
    if (token) onToken(token);
  };
  const cancel = () => {
    close();
    onCancel();
  };
  form.addEventListener("submit", submit);
  form.addEventListener("reset", cancel);
}
