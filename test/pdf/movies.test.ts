/**
 * Movies a PDF names, found by the check and given to the presenter (deck/movie-annotations,
 * deck/analyze/movies): a Movie annotation (Beamer's `\movie`) naming a file beside the PDF, a
 * Launch or `run:` link, a Screen whose rendition names a file — each gets a media entry on its
 * slide naming the file and its rectangle. Played from the deck when the deck carries it
 * (embedded in the annotation, attached under that name, or handed over by a media sidecar);
 * otherwise MEDIA_NOT_IN_DECK, and the presenter gets its place (a placeholder, the poster on
 * the projector). Every report is validated against the schema. Also on real decks built by
 * pdflatex: Beamer's `\movie` with the file beside the PDF, attached with embedfile, embedded
 * by the test (mupdf), `externalviewer`, and `autostart,loop`.
 * pdflatex must be installed (.ci/run does): without it these tests fail, they never skip.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readDeckExtras } from "../../src/deck/extras.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildFixturePdf, checkFixture, mediaSidecar, mp4Bytes, writeBytes, type FixtureSpec } from "../fixtures/sidecar-builder.ts";
import { buildBeamerDeck, embedMovies, removeBeamerDecks, type BeamerFrame } from "../fixtures/beamer.ts";
import { checkPdfFile } from "../../src/pdf/check.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: four pdflatex decks are built first (~15 s on a loaded 2-vCPU machine).
setDefaultTimeout(180_000);

/** A Movie annotation as Beamer's multimedia writes it: /Movie /F naming the file, /A the activation, /T the label. */
function movieAnnot(page: number, file: string, extra: Record<string, unknown> = {}, rect = [100, 400, 300, 550]) {
  return { page, dict: { Type: "Annot", Subtype: "Movie", Rect: rect, T: `(label-${page}-${file})`, Movie: { F: `(${file})` }, A: {}, ...extra } };
}
function linkAnnot(page: number, action: Record<string, unknown>, rect = [100, 400, 300, 550]) {
  return { page, dict: { Type: "Annot", Subtype: "Link", Rect: rect, A: action } };
}

async function extrasOf(spec: FixtureSpec) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await buildFixturePdf(spec), "application/pdf").asPDF() as PdfDoc;
  return readDeckExtras(mupdf, doc);
}

/** The rectangle [100 400 300 550] on a 612×792 page, from its top-left. */
const RECT = { x: 100, y: 242, w: 200, h: 150 };

describe("a movie the PDF names beside itself", () => {
  test("a Movie annotation: a media entry naming the file at its rectangle, MEDIA_NOT_IN_DECK, and the presenter's placeholder", async () => {
    const spec: FixtureSpec = { pages: 2, rawAnnotations: [movieAnnot(2, "media/clip.mp4")] };
    const report = await checkFixture(spec);
    expectValidReport(report);
    expect(report.ok).toBe(true);
    const [entry] = report.pages[1]!.media;
    expect(entry).toMatchObject({ filename: "clip.mp4", name: "media/clip.mp4", kind: "page-media", source: "page-annotation", page: 2, slide: 2, validity: "warning", bytes: null });
    expect(entry!.data).toEqual({ kind: "file", id: "clip", slide: 2, rect: RECT, mime: "video/mp4", autoplay: false, loop: false, file: "media/clip.mp4", inDeck: false, annotation: "Movie" });
    expect(entry!.issues.map((i) => i.code)).toEqual(["MEDIA_NOT_IN_DECK"]);
    expect(entry!.issues[0]!.message).toContain('Slide 2 plays the movie "media/clip.mp4"');
    expect(entry!.issues[0]!.message).toContain("\\embedfile{clip.mp4}");
    expect(entry!.issues[0]!.message).toContain("media-slide-2-{id}.json");
    // Nothing of it is an orphan or an unknown attachment.
    expect(report.orphans).toEqual([]);
    const extras = await extrasOf(spec);
    expect(extras.media).toEqual([{ id: "clip", kind: "file", slide: 2, rect: RECT, mime: "video/mp4", autoplay: false, loop: false, source: "page-annotation", movie: { file: "media/clip.mp4", annotation: "Movie", inDeck: false } }]);
  });

  test("how it plays: /Mode /Repeat loops, a Movie action on page open (Beamer's autostart widget) starts it", async () => {
    const report = await checkFixture({
      pages: 1,
      rawAnnotations: [
        movieAnnot(1, "loop.mp4", { T: "(mm1)", A: { Mode: "Repeat" } }),
        { page: 1, dict: { Type: "Annot", Subtype: "Widget", FT: "Btn", Rect: [0, 0, 0, 0], T: "(wid@mm1)", AA: { PO: { S: "Movie", T: "(mm1)", Operation: "Play" } } } },
        movieAnnot(1, "still.mp4", { T: "(mm2)" }, [320, 400, 500, 550]),
      ],
    });
    expectValidReport(report);
    expect(report.pages[0]!.media.map((m) => [m.filename, m.data?.autoplay, m.data?.loop])).toEqual([
      ["loop.mp4", true, true],
      ["still.mp4", false, false],
    ]);
  });

  test("Launch and run: links naming a movie are movies (pdfpc's ?autostart&loop read); other links are not", async () => {
    const report = await checkFixture({
      pages: 1,
      rawAnnotations: [
        linkAnnot(1, { S: "Launch", F: "(clip.mp4?autostart&loop)" }),
        linkAnnot(1, { S: "URI", URI: "(run:media/talk%20intro.webm)" }, [320, 400, 500, 550]),
        linkAnnot(1, { S: "Launch", F: "(handout.pdf)" }, [100, 100, 200, 150]),
        linkAnnot(1, { S: "URI", URI: "(https://example.org/clip.mp4)" }, [300, 100, 400, 150]),
      ],
    });
    expectValidReport(report);
    expect(report.pages[0]!.media.map((m) => ({ file: m.data?.file, annotation: m.data?.annotation, autoplay: m.data?.autoplay, loop: m.data?.loop, codes: m.issues.map((i) => i.code) }))).toEqual([
      { file: "clip.mp4", annotation: "Link", autoplay: true, loop: true, codes: ["MEDIA_NOT_IN_DECK"] },
      { file: "media/talk intro.webm", annotation: "Link", autoplay: false, loop: false, codes: ["MEDIA_NOT_IN_DECK"] },
    ]);
    expect(report.pages[0]!.media[0]!.issues[0]!.message).toContain("\\href{run:…}");
  });

  test("\\movie inside \\href{run:…}: one movie on one poster, not two", async () => {
    const report = await checkFixture({ pages: 1, rawAnnotations: [movieAnnot(1, "clip.mp4"), linkAnnot(1, { S: "Launch", F: "(clip.mp4)" })] });
    expectValidReport(report);
    expect(report.pages[0]!.media.map((m) => m.data?.annotation)).toEqual(["Movie"]);
  });

  test("a Screen whose rendition names a file (media9/movie15 without embedding) is a movie, not an unknown attachment", async () => {
    const report = await checkFixture({ pages: 1, rawAnnotations: [{ page: 1, dict: { Type: "Annot", Subtype: "Screen", Rect: [100, 400, 300, 550], A: { S: "Rendition", R: { S: "MR", C: { S: "MCD", D: "(clip.mp4)" } } } } }] });
    expectValidReport(report);
    expect(report.orphans).toEqual([]);
    expect(report.pages[0]!.media).toHaveLength(1);
    expect(report.pages[0]!.media[0]).toMatchObject({ filename: "clip.mp4", kind: "page-media", data: { annotation: "Screen", inDeck: false } });
    expect(report.pages[0]!.media[0]!.issues.map((i) => i.code)).toEqual(["MEDIA_NOT_IN_DECK"]);
  });
});

describe("a movie the deck carries plays from it", () => {
  test("embedded in the Movie annotation (/Movie /F with /EF): page media at its rectangle, valid", async () => {
    const spec: FixtureSpec = { pages: 1, attachments: [{ name: "clip.mp4", data: mp4Bytes(), page: 1, annotation: "Movie", rect: [100, 400, 300, 550] }] };
    const report = await checkFixture(spec);
    expectValidReport(report);
    expect(report.pages[0]!.media).toHaveLength(1);
    expect(report.pages[0]!.media[0]).toMatchObject({ filename: "clip.mp4", kind: "page-media", validity: "valid", sniffedType: "video/mp4", data: { rect: RECT, attachment: "clip.mp4", file: "clip.mp4", inDeck: true, annotation: "Movie", autoplay: false } });
    const extras = await extrasOf(spec);
    expect(extras.media).toEqual([{ id: "clip", kind: "file", slide: 1, rect: RECT, mime: "video/mp4", autoplay: false, loop: false, attachment: "clip.mp4", source: "page-annotation", movie: { file: "clip.mp4", annotation: "Movie", inDeck: true } }]);
  });

  test("attached to the PDF under its name (embedfile's \\embedfile): it plays at the movie's rectangle", async () => {
    const spec: FixtureSpec = { pages: 2, attachments: [{ name: "clip.mp4", data: mp4Bytes() }], rawAnnotations: [movieAnnot(2, "clip.mp4")] };
    const report = await checkFixture(spec);
    expectValidReport(report);
    expect(report.orphans).toEqual([]);
    expect(report.summary).toEqual({ total: 1, valid: 1, warning: 0, invalid: 0 });
    expect(report.pages[1]!.media[0]).toMatchObject({ filename: "clip.mp4", source: "embedded-files", kind: "page-media", slide: 2, validity: "valid", data: { rect: RECT, inDeck: true, annotation: "Movie", attachment: "clip.mp4" } });
    const extras = await extrasOf(spec);
    expect(extras.media.map((m) => [m.slide, m.attachment, m.movie?.inDeck])).toEqual([[2, "clip.mp4", true]]);
  });

  test("attached to its page by a FileAttachment: it plays at the movie's rectangle, not the attachment icon's", async () => {
    const report = await checkFixture({ pages: 1, attachments: [{ name: "clip.mp4", data: mp4Bytes(), page: 1, rect: [10, 10, 30, 30] }], rawAnnotations: [movieAnnot(1, "clip.mp4")] });
    expectValidReport(report);
    expect(report.pages[0]!.media).toHaveLength(1);
    expect(report.pages[0]!.media[0]).toMatchObject({ validity: "valid", data: { rect: RECT, inDeck: true } });
  });

  test("one attached file named by movies on two slides plays on both", async () => {
    const spec: FixtureSpec = { pages: 2, attachments: [{ name: "clip.mp4", data: mp4Bytes() }], rawAnnotations: [movieAnnot(1, "clip.mp4"), movieAnnot(2, "clip.mp4")] };
    const report = await checkFixture(spec);
    expectValidReport(report);
    expect(report.pages.map((p) => p.media.map((m) => [m.validity, m.data?.inDeck]))).toEqual([[["valid", true]], [["valid", true]]]);
    const extras = await extrasOf(spec);
    expect(extras.media.map((m) => [m.id, m.slide, m.attachment])).toEqual([
      ["clip", 1, "clip.mp4"],
      ["clip-p2", 2, "clip.mp4"],
    ]);
  });

  test("handed over by a media sidecar on its slide (playing that file, or covering the poster): no finding, the sidecar plays", async () => {
    const byName = await checkFixture({ pages: 1, attachments: [mediaSidecar(1, "intro", { kind: "url", mime: "video/mp4", url: "https://media.example.org/talk/clip.mp4", x_pt: 0, y_pt: 0, w_pt: 50, h_pt: 50 })], rawAnnotations: [movieAnnot(1, "clip.mp4")] });
    expectValidReport(byName);
    const movie = byName.pages[0]!.media.find((m) => m.data?.annotation === "Movie");
    expect(movie).toMatchObject({ validity: "valid", issues: [], data: { inDeck: true, playedBy: "media-slide-1-intro.json" } });
    const byPlace = await checkFixture({ pages: 1, attachments: [mediaSidecar(1, "demo", { kind: "youtube", video_id: "dQw4w9WgXcQ", x_pt: 90, y_pt: 230, w_pt: 220, h_pt: 170 })], rawAnnotations: [movieAnnot(1, "clip.mp4")] });
    expectValidReport(byPlace);
    expect(byPlace.pages[0]!.media.find((m) => m.data?.annotation === "Movie")).toMatchObject({ validity: "valid", data: { playedBy: "media-slide-1-demo.json" } });
    const extras = await extrasOf({ pages: 1, attachments: [mediaSidecar(1, "demo", { kind: "youtube", video_id: "dQw4w9WgXcQ", x_pt: 90, y_pt: 230, w_pt: 220, h_pt: 170 })], rawAnnotations: [movieAnnot(1, "clip.mp4")] });
    expect(extras.media.map((m) => m.kind)).toEqual(["youtube"]);
  });
});

describe("real pdflatex Beamer decks with \\movie", () => {
  const clip = mp4Bytes(2048);
  const frames = (options?: string): BeamerFrame[] => [{ title: "Intro" }, { title: "Demo", movie: { file: "clip.mp4", ...(options ? { options } : {}) } }];
  const decks = new Map<string, Uint8Array>();
  beforeAll(() => {
    decks.set("beside", buildBeamerDeck({ position: null, frames: frames() }));
    decks.set("attached", buildBeamerDeck({ position: null, frames: frames(), preamble: ["\\usepackage{embedfile}", "\\embedfile{clip.mp4}"], files: { "clip.mp4": clip } }));
    decks.set("external", buildBeamerDeck({ position: null, frames: frames("externalviewer") }));
    decks.set("autostart", buildBeamerDeck({ position: null, frames: frames("autostart,loop") }));
  });
  afterAll(() => removeBeamerDecks());
  const check = (bytes: Uint8Array) => {
    const file = writeBytes(bytes);
    return checkPdfFile(file.path, { bytes: file.bytes, sha256: file.sha256 });
  };

  test("the file beside the PDF: a media entry naming it at the poster's rectangle, and MEDIA_NOT_IN_DECK", async () => {
    const report = await check(decks.get("beside")!);
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.pages[0]!.media).toEqual([]);
    const [movie] = report.pages[1]!.media;
    expect(movie).toMatchObject({ filename: "clip.mp4", kind: "page-media", validity: "warning", data: { annotation: "Movie", file: "clip.mp4", inDeck: false, autoplay: false, loop: false } });
    // \movie[width=6cm,height=4cm]: the poster's size in points.
    expect(movie!.data!.rect!.w).toBeCloseTo((6 / 2.54) * 72, 0);
    expect(movie!.data!.rect!.h).toBeCloseTo((4 / 2.54) * 72, 0);
    expect(movie!.issues.map((i) => i.code)).toEqual(["MEDIA_NOT_IN_DECK"]);
  });

  test("attached by embedfile's \\embedfile{clip.mp4}: it plays at the poster, valid, no orphan", async () => {
    const report = await check(decks.get("attached")!);
    expectValidReport(report);
    expect(report.orphans).toEqual([]);
    expect(report.pages[1]!.media).toHaveLength(1);
    expect(report.pages[1]!.media[0]).toMatchObject({ filename: "clip.mp4", source: "embedded-files", validity: "valid", bytes: clip.length, data: { annotation: "Movie", inDeck: true, attachment: "clip.mp4" } });
  });

  test("embedded in the Movie annotation by the test (mupdf): valid, from the annotation itself", async () => {
    const report = await check(await embedMovies(decks.get("beside")!, { "clip.mp4": clip }));
    expectValidReport(report);
    expect(report.pages[1]!.media).toHaveLength(1);
    expect(report.pages[1]!.media[0]).toMatchObject({ filename: "clip.mp4", source: "page-annotation", validity: "valid", data: { annotation: "Movie", inDeck: true } });
  });

  test("externalviewer (a Launch link) and autostart,loop (a Movie action on page open, /Mode /Repeat)", async () => {
    const external = await check(decks.get("external")!);
    expectValidReport(external);
    expect(external.pages[1]!.media.map((m) => [m.data?.annotation, m.data?.file, m.issues.map((i) => i.code)])).toEqual([["Link", "clip.mp4", ["MEDIA_NOT_IN_DECK"]]]);
    const autostart = await check(decks.get("autostart")!);
    expectValidReport(autostart);
    expect(autostart.pages[1]!.media.map((m) => [m.data?.annotation, m.data?.autoplay, m.data?.loop])).toEqual([["Movie", true, true]]);
  });
});
