/**
 * A notes file beside the PDF, per engine (test/helpers/engine.ts) against
 * the compiled binary: (a) `POST /api/present` with a `notes` part (a .pptx made by code) →
 * the handoff link stores the notes with the deck, the presenter's notes pane shows them, and
 * the server's notes route answers 410 once the link is used; (b) in the library, a PDF and
 * its .pdfpc dropped together; (c) a .pptx added to a stored deck ("Add notes…"), a refused
 * file that leaves it, and "Remove notes". Then, in Chromium (whose driver can fail one request
 * on purpose): a notes fetch that fails stops the claim before `complete` — the link stays
 * unused and a retry stores the deck with its notes. Screenshots go to
 * test-output/notes-file/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { seriousViolations } from "../helpers/axe.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { openLibrary, waitReady } from "../helpers/stage.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { buildPptx } from "../fixtures/pptx.ts";
import { OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 120_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);
const FIXTURES = join(OUTPUT, "fixtures", "notes-file");

/** A .pptx whose slide N's notes slide holds `notes[N-1]` (test/fixtures/pptx, part A's builder). */
const makePptx = (notes: readonly string[]) => buildPptx(notes.map((note, i) => ({ title: `Slide ${i + 1}`, notes: [note] })));

const PPTX_NOTES = ["Open with the PowerPoint story", "Second slide: the numbers from PowerPoint", "Third: thank the team"];
const PDFPC_NOTES = ["Welcome from the pdfpc file", "Slide two, said from pdfpc"];
const ADDED_NOTES = ["Added later: first slide", "Added later: second slide", "Added later: third slide", "A fourth slide the PDF lacks"];

const PDFPC = JSON.stringify({ pdfpcFormat: 2, duration: 15, pages: PDFPC_NOTES.map((note, idx) => ({ idx, label: String(idx + 1), overlay: 0, hidden: false, note })) });

let handoffDeck: Uint8Array;
let localDeck: Uint8Array;
let laterDeck: Uint8Array;
const paths = { handoffPptx: join(FIXTURES, "handoff-talk.pptx"), laterPdf: join(FIXTURES, "later-talk.pdf"), laterPptx: join(FIXTURES, "later-talk.pptx"), notNotes: join(FIXTURES, "not-notes.pptx") };

beforeAll(async () => {
  mkdirSync(FIXTURES, { recursive: true });
  // Three different decks (different bytes), as each is its own deck in the library.
  handoffDeck = await makeDeck({ pages: 3, title: "Handoff with PowerPoint notes" });
  localDeck = await makeDeck({ pages: 2, title: "Local with pdfpc notes" });
  laterDeck = await makeDeck({ pages: 3, title: "Notes added later" });
  writeFileSync(paths.handoffPptx, makePptx(PPTX_NOTES));
  writeFileSync(paths.laterPdf, laterDeck);
  writeFileSync(paths.laterPptx, makePptx(ADDED_NOTES));
  // A zip that is no PowerPoint file: the reader must refuse it with a sentence.
  writeFileSync(paths.notNotes, zipSync({ "readme.txt": strToU8("just a zip") }));
});

/** The presenter's notes pane text, once it contains `expected`. */
async function waitForNotes(page: EnginePage, expected: string): Promise<string> {
  await page.waitFor(`the notes pane to show “${expected}”`, (text) => (document.querySelector("#notes")?.textContent ?? "").includes(text), [expected], 30_000);
  return page.evaluate(() => document.querySelector("#notes")!.textContent ?? "");
}

/** The stored deck record's notes, read straight from IndexedDB in the page. */
function storedNotes(page: EnginePage, deckId: string) {
  return page.evaluate(async (id: string) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("deckhand");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const deck = await new Promise<{ notes?: { filename: string; kind: string; pdfpc: string }; handoffCompletedAt?: number } | undefined>((resolve, reject) => {
      const req = db.transaction("decks").objectStore("decks").get(id);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return deck ? { notes: deck.notes ?? null, completed: typeof deck.handoffCompletedAt === "number" } : null;
  }, deckId);
}

/** Drop files on the library as a user's drag from the desktop does: one `drop` with them all. */
function dropFiles(page: EnginePage, files: { name: string; type: string; bytes: Uint8Array }[]) {
  const payload = files.map((f) => ({ name: f.name, type: f.type, base64: Buffer.from(f.bytes).toString("base64") }));
  return page.evaluate((list: { name: string; type: string; base64: string }[]) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    document.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    document.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    return transfer.files.length;
  }, payload);
}

const deckIdOf = async (page: EnginePage) => decodeURIComponent(new URL(await page.href()).pathname.split("/").pop()!);

for (const name of ENGINES) {
  describe(`notes file beside the PDF in ${name}`, () => {
    const shots = join(OUTPUT, "notes-file", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1280, height: 800 } }, timeoutMs: STEP_MS });
    const page = suite.page;
    const shot = (file: string) => page.screenshot(join(shots, `${file}.png`));

    it("(a) a .pptx sent with `deckhand present` comes with the handoff link: stored with the deck, shown in the presenter, gone from the server", async () => {
      const notes = new File([Bun.file(paths.handoffPptx)], "Quarterly notes.pptx", { type: "application/vnd.openxmlformats-officedocument.presentationml.presentation" });
      const handoff = await presentPdf(suite.server.url, handoffDeck, "Quarterly.pdf", { notes });
      const token = new URL(handoff.url).hash.replace(/^#t=/, "");
      const notesRoute = () => fetch(`${suite.server.url}/api/sessions/${handoff.id}/notes`, { headers: { "x-controller-token": decodeURIComponent(token) } });
      // Before the claim the notes are there for the holder of the link, and only for them.
      expect((await notesRoute()).status).toBe(200);
      expect((await fetch(`${suite.server.url}/api/sessions/${handoff.id}/notes`, { headers: { "x-controller-token": "wrong" } })).status).toBe(403);

      await page.goto(handoff.url);
      await waitReady(page, "the presenter", 60_000, "/present/");
      const id = await deckIdOf(page);
      const stored = await storedNotes(page, id);
      expect(stored?.completed).toBe(true);
      expect(stored?.notes).toMatchObject({ filename: "Quarterly notes.pptx", kind: "pptx" });
      expect(JSON.parse(stored!.notes!.pdfpc)).toMatchObject({ pdfpcFormat: 2 });
      expect(await waitForNotes(page, PPTX_NOTES[0]!)).not.toContain(PPTX_NOTES[1]!);
      await shot("a-1-presenter-pptx-notes-slide-1");
      await page.press("ArrowRight");
      await page.waitFor("slide 2", () => document.querySelector("#counter")?.textContent?.startsWith("2") === true, [], 20_000);
      expect(await waitForNotes(page, PPTX_NOTES[1]!)).not.toContain(PPTX_NOTES[0]!);
      await shot("a-2-presenter-pptx-notes-slide-2");

      // The link is used: the server keeps no notes, and says so.
      const after = await notesRoute();
      expect(after.status).toBe(410);
      expect(((await after.json()) as { code: string }).code).toBe("HANDOFF_CLAIMED");

      // The library shows where the deck's notes came from.
      await openLibrary(page, suite.server.url);
      const row = await page.evaluate((deck: string) => {
        const el = document.querySelector<HTMLElement>(`li[data-deck="${deck}"] .deck-notes`);
        return el ? { kind: el.dataset.notes, text: el.textContent } : null;
      }, id);
      expect(row).toMatchObject({ kind: "pptx" });
      expect(row!.text).toContain("Quarterly notes.pptx");
    });

    it("(b) a PDF dropped in the library with its .pdfpc: the notes are kept with it and shown in the presenter", async () => {
      await openLibrary(page, suite.server.url);
      expect(await dropFiles(page, [
        { name: "talk.pdfpc", type: "application/json", bytes: new TextEncoder().encode(PDFPC) },
        { name: "Local talk.pdf", type: "application/pdf", bytes: localDeck },
      ])).toBe(2);
      await page.waitFor("the share screen", () => !document.querySelector("#share")!.hasAttribute("hidden"), [], 30_000);
      const share = await page.evaluate(() => ({ deck: document.querySelector("#share-deck")!.textContent, notes: document.querySelector("#share-notes")!.textContent, hidden: document.querySelector<HTMLElement>("#share-notes")!.hidden }));
      expect(share.hidden).toBe(false);
      expect(share.notes).toContain("talk.pdfpc");
      expect(share.notes).toContain("notes on 2 slides");
      await page.waitFor("the thumbnails", () => document.body.dataset.thumbnails === "done", [], 30_000);
      await shot("b-1-library-dropped-pdf-and-pdfpc");
      const id = await page.evaluate(() => decodeURIComponent(new URL((document.querySelector("#share-present") as HTMLAnchorElement).href).pathname.split("/").pop()!));
      expect((await storedNotes(page, id))?.notes).toEqual({ filename: "talk.pdfpc", kind: "pdfpc", pdfpc: expect.any(String) });

      await page.click("#share-present");
      await waitReady(page, "the presenter", 30_000, "/present/");
      await waitForNotes(page, PDFPC_NOTES[0]!);
      await page.press("ArrowRight");
      await waitForNotes(page, PDFPC_NOTES[1]!);
      await shot("b-2-presenter-pdfpc-notes");
    });

    it("(c) notes added to a stored deck: a refused file says why and changes nothing, a .pptx is kept (its slide count warned), shown, and removable", async () => {
      await openLibrary(page, suite.server.url);
      await page.upload("#file-input", paths.laterPdf);
      await page.waitFor("the share screen", () => !document.querySelector("#share")!.hasAttribute("hidden"), [], 30_000);
      const id = await page.evaluate(() => decodeURIComponent(new URL((document.querySelector("#share-present") as HTMLAnchorElement).href).pathname.split("/").pop()!));
      const card = `li[data-deck="${id}"]`;
      const row = () =>
        page.evaluate((sel: string) => {
          const el = document.querySelector<HTMLElement>(`${sel} .deck-notes`)!;
          return {
            kind: el.dataset.notes,
            line: el.querySelector(".deck-notes-line")?.textContent ?? "",
            outcome: el.querySelector(".deck-notes-outcome")?.textContent ?? "",
            findings: Array.from(el.querySelectorAll<HTMLElement>(".notes-finding")).map((f) => ({ level: f.classList.contains("notes-finding-error") ? "error" : "warning", code: f.dataset.code, text: f.textContent })),
            buttons: Array.from(el.querySelectorAll("button")).map((b) => b.textContent),
          };
        }, card);
      expect(await row()).toMatchObject({ kind: "none", line: "No notes file", findings: [], buttons: ["Add notes…"] });

      // Not a notes file: refused with a sentence, nothing stored.
      await page.upload(`${card} input[data-notes-input]`, paths.notNotes);
      await page.waitFor("the refusal", (sel: string) => !!document.querySelector(`${sel} .deck-notes-refused`), [card], 30_000);
      const refused = await row();
      expect(refused.kind).toBe("none");
      expect(refused.outcome).toContain("not-notes.pptx");
      expect(refused.findings.length).toBeGreaterThan(0);
      expect(refused.findings.every((f) => f.text!.length > 20)).toBe(true);
      expect(refused.findings.some((f) => f.level === "error")).toBe(true);
      expect((await storedNotes(page, id))?.notes).toBeNull();
      await shot("c-1-library-notes-refused");
      expect(await seriousViolations(page)).toEqual([]);

      // A .pptx of four slides for a three-page PDF: kept, with a warning that says so.
      await page.upload(`${card} input[data-notes-input]`, paths.laterPptx);
      await page.waitFor("the notes kept", (sel: string) => document.querySelector<HTMLElement>(`${sel} .deck-notes`)?.dataset.notes === "pptx", [card], 30_000);
      const kept = await row();
      expect(kept.line).toContain("later-talk.pptx");
      expect(kept.line).toContain("PowerPoint");
      // The fourth slide has no page to go with: its notes are left out, and a warning says so.
      expect(kept.outcome).toBe("Added: notes on 3 slides.");
      expect(kept.findings.map((f) => f.text).join(" ")).toContain("4");
      expect(kept.findings.filter((f) => f.level === "error")).toEqual([]);
      expect(kept.findings.filter((f) => f.level === "warning").length).toBeGreaterThan(0);
      expect(kept.buttons).toEqual(["Replace…", "Remove"]);
      expect((await storedNotes(page, id))?.notes).toMatchObject({ filename: "later-talk.pptx", kind: "pptx" });
      await shot("c-2-library-notes-added-with-warning");
      expect(await seriousViolations(page)).toEqual([]);
      await page.evaluate(() => {
        document.querySelector("#share")!.setAttribute("hidden", "");
        scrollTo(0, 0);
      });
      await shot("c-2b-library-overview");

      await page.goto(`${suite.server.url}/present/${encodeURIComponent(id)}`);
      await waitReady(page, "the presenter", 30_000);
      await waitForNotes(page, ADDED_NOTES[0]!);
      await page.press("ArrowRight");
      await waitForNotes(page, ADDED_NOTES[1]!);
      await shot("c-3-presenter-added-notes");

      // Remove: the deck stays, its notes file goes, and the presenter no longer shows it.
      await openLibrary(page, suite.server.url);
      await page.evaluate(() => void (window.confirm = () => true));
      await page.click(`${card} button[data-notes-remove]`);
      await page.waitFor("the notes removed", (sel: string) => document.querySelector<HTMLElement>(`${sel} .deck-notes`)?.dataset.notes === "none", [card], 20_000);
      expect((await storedNotes(page, id))?.notes).toBeNull();
      await page.goto(`${suite.server.url}/present/${encodeURIComponent(id)}`);
      await waitReady(page, "the presenter", 30_000);
      await page.waitFor("the notes pane settled", () => (document.querySelector("#notes")?.textContent ?? "").length > 0, [], 20_000);
      expect(await page.evaluate(() => document.querySelector("#notes")!.textContent)).not.toContain(ADDED_NOTES[0]!);
    });
  });
}

// Chromium's driver fails one request on purpose; like the engine suites above, a run narrowed
// by DECKHAND_ENGINES to other engines does not register it.
if (ENGINES.includes("chromium")) describe("the claim waits for the notes (chromium, a request failed on purpose)", () => {
  let server: BinaryServer;
  beforeAll(async () => {
    server = await startBinary();
  }, STEP_MS);
  afterAll(async () => {
    await server?.stop();
    server?.cleanup();
  });

  it("a notes fetch that fails shows its screen and consumes nothing; the retry stores the deck with its notes, without downloading the PDF again", async () => {
    const handoff = await presentPdf(server.url, handoffDeck, "Retry talk.pdf", { notes: new File([Bun.file(paths.handoffPptx)], "retry.pptx") });
    const token = decodeURIComponent(new URL(handoff.url).hash.replace(/^#t=/, ""));
    const s = await launchBrowser({ viewport: { width: 1100, height: 760 } });
    try {
      const seen = { downloads: 0, notes: 0, completes: 0 };
      s.page.on("request", (req) => {
        const path = new URL(req.url()).pathname;
        if (path.endsWith("/handoff")) seen.downloads++;
        if (path.endsWith("/notes")) seen.notes++;
        if (path.endsWith("/handoff/complete")) seen.completes++;
      });
      let fail = true;
      await s.page.route("**/api/sessions/*/notes", async (route) => {
        if (!fail) return route.continue();
        fail = false;
        await route.fulfill({ status: 500, contentType: "application/problem+json", body: JSON.stringify({ type: "about:blank", title: "Internal error", status: 500, code: "INTERNAL", detail: "x" }) });
      });
      await s.page.goto(handoff.url);
      await s.page.waitForSelector("body[data-screen='notes']", { timeout: 30_000 });
      expect(await s.page.textContent("h1")).toContain("notes");
      expect(await s.page.textContent("#retry")).toBe("Try again");
      await s.page.screenshot({ path: join(OUTPUT, "notes-file", "chromium-claim-notes-failed.png") });
      // Nothing was used up: not completed, the server still holds the deck and its notes,
      // and this browser stored nothing.
      expect(seen.completes).toBe(0);
      expect((await fetch(`${server.url}/api/sessions/${handoff.id}/notes`, { headers: { "x-controller-token": token } })).status).toBe(200);
      expect((await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${encodeURIComponent(token)}`, { headers: { Range: "bytes=0-0" } })).status).toBe(206);
      const storedBefore = await s.page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open("deckhand");
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const count = await new Promise<number>((resolve) => {
          const req = db.transaction("decks").objectStore("decks").count();
          req.onsuccess = () => resolve(req.result);
        });
        db.close();
        return count;
      });
      expect(storedBefore).toBe(0);

      await s.page.click("#retry");
      await s.page.waitForURL(/\/present\//, { timeout: 30_000 });
      await s.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
      expect(seen).toEqual({ downloads: 1, notes: 2, completes: 1 });
      await s.page.waitForFunction((text) => (document.querySelector("#notes")?.textContent ?? "").includes(text), PPTX_NOTES[0]!, { timeout: 30_000 });
      expect((await fetch(`${server.url}/api/sessions/${handoff.id}/notes`, { headers: { "x-controller-token": token } })).status).toBe(410);
    } finally {
      await s.close();
    }
  });
});
