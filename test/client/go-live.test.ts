/**
 * What the presenter's window sends when it goes live (client/live/presenter/go-live `uploadDeck`): the
 * stored PDF and, when the deck keeps a notes file, its normalised `.pdfpc` as the `notes`
 * part (named .pdfpc whatever it was before); a notes file the server refuses (a NOTES_FILE_*
 * problem) is dropped and the deck goes live without it; any other refusal is answered as is.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { uploadDeck } from "../../client/src/live/presenter/go-live.ts";
import type { DeckRecord, DeckStore } from "../../client/src/storage/deck-store.ts";

const PDF = new TextEncoder().encode("%PDF-1.7 test bytes");
const PDFPC = JSON.stringify({ pdfpcFormat: 2, disableMarkdown: true, pages: [{ idx: 0, note: "Read https://www.example.org/a_b.html" }] });

const store = { getDeckBytes: async () => PDF.buffer } as unknown as DeckStore;
const deck = (notes?: DeckRecord["notes"]) => ({ id: "d1", title: "Quarterly", filename: "Quarterly", ...(notes ? { notes } : {}) }) as DeckRecord;

interface Sent {
  url: string;
  authorization: string | null;
  file: File;
  notes: File | null;
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answer each POST with the next of `answers`, recording what was sent. */
function serve(answers: Response[]): Sent[] {
  const sent: Sent[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const form = init!.body as FormData;
    sent.push({ url: String(input), authorization: new Headers(init!.headers).get("authorization"), file: form.get("file") as File, notes: (form.get("notes") as File | null) ?? null });
    return answers.shift()!;
  }) as typeof fetch;
  return sent;
}

const problem = (status: number, code: string) => new Response(JSON.stringify({ status, code, title: "x", detail: "x", type: "about:blank" }), { status, headers: { "content-type": "application/problem+json" } });
const created = () => new Response(JSON.stringify({ code: "K7QX2M" }), { status: 201 });

describe("uploadDeck", () => {
  test("a deck with a notes file sends the PDF and the normalised .pdfpc, named .pdfpc, with the credential", async () => {
    const sent = serve([created()]);
    const response = await uploadDeck(store, deck({ filename: "Quarterly notes.pptx", kind: "pptx", pdfpc: PDFPC }), "Grant g1");
    expect(response.status).toBe(201);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("/api/live");
    expect(sent[0]!.authorization).toBe("Grant g1");
    expect(sent[0]!.file.name).toBe("Quarterly.pdf");
    expect(new Uint8Array(await sent[0]!.file.arrayBuffer())).toEqual(PDF);
    expect(sent[0]!.notes?.name).toBe("Quarterly notes.pdfpc");
    expect(sent[0]!.notes?.type).toStartWith("application/json");
    expect(await sent[0]!.notes!.text()).toBe(PDFPC);
  });

  test("a deck without notes sends no notes part", async () => {
    const sent = serve([created()]);
    await uploadDeck(store, deck(), null);
    expect(sent.map((s) => s.notes)).toEqual([null]);
  });

  for (const [status, code] of [
    [422, "NOTES_FILE_INVALID"],
    [422, "NOTES_FILE_UNREADABLE"],
    [413, "NOTES_FILE_TOO_LARGE"],
  ] as const) {
    test(`${status} ${code}: the deck goes live again without its notes`, async () => {
      const sent = serve([problem(status, code), created()]);
      const response = await uploadDeck(store, deck({ filename: "talk.pdfpc", kind: "pdfpc", pdfpc: PDFPC }), null);
      expect(response.status).toBe(201);
      expect(sent.map((s) => s.notes?.name ?? null)).toEqual(["talk.pdfpc", null]);
    });
  }

  test("any other refusal is the answer, sent once, its problem still readable", async () => {
    const sent = serve([problem(422, "PDF_UNREADABLE")]);
    const response = await uploadDeck(store, deck({ filename: "talk.pdfpc", kind: "pdfpc", pdfpc: PDFPC }), null);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { code: string }).code).toBe("PDF_UNREADABLE");
    expect(sent).toHaveLength(1);
  });
});
