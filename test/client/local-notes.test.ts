/**
 * The library's notes file beside a local PDF (client/lib/local-deck): sorting what was
 * dropped together, judging the deck layer's findings (errors refuse, warnings are shown),
 * and keeping accepted notes with a stored deck (fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, test } from "bun:test";
import type { NotesFileResult } from "../../src/deck/notes-file/types.ts";
import { MAX_NOTES_FILE_BYTES } from "../../src/deck/notes-file/index.ts";
import { addNotesToDeck, checkNotesFile, isNotesFileName, judgeNotesFile, notesFilename, sortDroppedFiles } from "../../client/src/lib/local-deck.ts";
import { DeckStore } from "../../client/src/storage/deck-store.ts";

const PDF_HEAD = "%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n";
const PDFPC = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, label: "1", overlay: 0, note: "Welcome" }, { idx: 1, label: "2", overlay: 0, note: "The numbers" }] });

const file = (name: string, content: string | Uint8Array) => new File([content as BlobPart], name);
const result = (over: Partial<NotesFileResult>): NotesFileResult => ({ kind: "pdfpc", filename: "talk.pdfpc", notes: new Map([[1, "Welcome"]]), notesFormat: "markdown", timer: {}, hidden: [], overlays: [], slideCount: 1, pdfpc: PDFPC, issues: [], ...over });

const stores: DeckStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe("what was dropped together", () => {
  test("the PDF is told by its bytes, the notes file by its name, whatever the order", async () => {
    const pdf = file("slides.PDF", PDF_HEAD);
    const notes = file("slides.pdfpc", PDFPC);
    expect(await sortDroppedFiles([notes, pdf])).toEqual({ pdf, notes, extra: [] });
    const renamed = file("talk.bin", PDF_HEAD);
    const pptx = file("Talk.PPTX", new Uint8Array([0x50, 0x4b, 3, 4]));
    expect(await sortDroppedFiles([pptx, renamed])).toEqual({ pdf: renamed, notes: pptx, extra: [] });
  });

  test("one other file beside a PDF is tried as notes (the reader says what it is); more are left out", async () => {
    const pdf = file("a.pdf", PDF_HEAD);
    const other = file("notes.txt", "hello");
    expect(await sortDroppedFiles([pdf, other])).toEqual({ pdf, notes: other, extra: [] });
    const named = file("a.pdfpc", PDFPC);
    const second = file("b.pdf", PDF_HEAD);
    expect(await sortDroppedFiles([pdf, other, named, second])).toEqual({ pdf, notes: named, extra: [other, second] });
  });

  test("a notes file alone is found as notes, with no PDF (the library then says what to do)", async () => {
    const notes = file("a.pptx", new Uint8Array([0x50, 0x4b]));
    expect(await sortDroppedFiles([notes])).toEqual({ pdf: null, notes, extra: [] });
  });

  test("notes file names", () => {
    expect(isNotesFileName("Talk.PDFPC")).toBe(true);
    expect(isNotesFileName("deck.pptx")).toBe(true);
    expect(isNotesFileName("deck.ppt")).toBe(false);
    expect(isNotesFileName("deck.pdf")).toBe(false);
    expect(notesFilename("C:\\Users\\me\\talk\u0007.pptx")).toBe("talk.pptx");
    expect(notesFilename("/tmp/")).toBe("notes");
  });
});

describe("judging a notes file", () => {
  test("a clean file is kept as its normalised .pdfpc text", () => {
    const check = judgeNotesFile(result({ kind: "pptx", filename: "dir/Talk.pptx", slideCount: 2 }));
    expect(check).toEqual({ filename: "Talk.pptx", kind: "pptx", notes: { filename: "Talk.pptx", kind: "pptx", pdfpc: PDFPC }, findings: [], slideCount: 2, notedSlides: 1 });
  });

  test("warnings are shown and the notes kept", () => {
    const warning = { code: "NOTES_MULTIPLE_SOURCES" as const, level: "warning" as const, message: "talk.pptx has 12 slides; the PDF has 10 pages.", slide: 3 };
    const check = judgeNotesFile(result({ kind: "pptx", issues: [warning] }));
    expect(check.notes?.pdfpc).toBe(PDFPC);
    expect(check.findings).toEqual([{ level: "warning", code: "NOTES_MULTIPLE_SOURCES", message: warning.message, slide: 3 }]);
  });

  test("any error refuses the file with its sentence, even when some notes were read", () => {
    const error = { code: "INVALID_JSON" as const, level: "error" as const, message: "talk.pdfpc is not valid JSON; save it again from pdfpc." };
    const check = judgeNotesFile(result({ issues: [error] }));
    expect(check.notes).toBeNull();
    expect(check.findings).toEqual([{ level: "error", code: "INVALID_JSON", message: error.message }]);
  });

  test("a result with nothing usable and no error still gets a sentence", () => {
    const check = judgeNotesFile(result({ kind: null, pdfpc: null }));
    expect(check.notes).toBeNull();
    expect(check.findings[0]).toMatchObject({ level: "error", code: "NOTES_FILE_UNRECOGNIZED" });
    expect(check.findings[0]!.message).toContain("talk.pdfpc");
  });

  test("a file past the size cap is refused before it is read", async () => {
    const huge = { name: "big.pptx", size: MAX_NOTES_FILE_BYTES + 1, arrayBuffer: () => Promise.reject(new Error("must not be read")) } as unknown as File;
    const check = await checkNotesFile(huge, 3);
    expect(check.notes).toBeNull();
    expect(check.findings).toEqual([expect.objectContaining({ level: "error", code: "NOTES_FILE_TOO_LARGE" })]);
  });
});

describe("notes added to a stored deck", () => {
  async function storeWithDeck() {
    const store = await DeckStore.open({ name: `local-notes-${Date.now()}-${Math.random()}` });
    stores.push(store);
    const deck = await store.putDeck({ title: "Talk", filename: "talk", totalSlides: 2, sha256: "c".repeat(64), source: "local", data: new Uint8Array([1]).buffer });
    return { store, deck };
  }

  test("a .pdfpc read in the browser is kept with the deck as normalised text", async () => {
    const { store, deck } = await storeWithDeck();
    const check = await addNotesToDeck(file("talk.pdfpc", PDFPC), deck, store);
    expect(check.notes).toMatchObject({ filename: "talk.pdfpc", kind: "pdfpc" });
    expect(check.findings.filter((f) => f.level === "error")).toEqual([]);
    const stored = await store.getDeck(deck.id);
    expect(stored?.notes).toEqual(check.notes!);
    expect(JSON.parse(stored!.notes!.pdfpc)).toMatchObject({ pdfpcFormat: 2 });
  });

  test("a refused file leaves the notes the deck had", async () => {
    const { store, deck } = await storeWithDeck();
    await addNotesToDeck(file("talk.pdfpc", PDFPC), deck, store);
    const before = (await store.getDeck(deck.id))!.notes;
    const check = await addNotesToDeck(file("broken.pdfpc", "{ not json"), deck, store);
    expect(check.notes).toBeNull();
    expect(check.findings.some((f) => f.level === "error")).toBe(true);
    expect((await store.getDeck(deck.id))!.notes).toEqual(before!);
  });

  test("notes for a deck deleted meanwhile are refused, and nothing is stored", async () => {
    const { store, deck } = await storeWithDeck();
    await store.deleteDeck(deck.id);
    const error = await addNotesToDeck(file("talk.pdfpc", PDFPC), deck, store).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("no longer stored");
    expect(await store.getDeck(deck.id)).toBeUndefined();
  });
});
