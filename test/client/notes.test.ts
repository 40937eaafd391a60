import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { notesToHtml } from "../../client/src/lib/notes-markdown.ts";
import { textSegments } from "../../client/src/lib/notes-text.ts";
import { escapeMarkdown } from "../../src/deck/sidecar/typst.ts";
import { missingMoviesNotice } from "../../client/src/presenter/movie-notice.ts";
import type { SlideMedia } from "../../src/deck/sidecar/types.ts";

// DOMPurify needs a DOM; the browser tests cover the sanitised result on the page.
describe("notes markdown", () => {
  test("markdown formatting is kept", () => {
    expect(notesToHtml("**bold** and *em*")).toBe("<p><strong>bold</strong> and <em>em</em></p>\n");
    expect(notesToHtml("- a\n- b")).toContain("<li>a</li>");
  });

  test("raw HTML blocks and inline HTML become text, never markup", () => {
    const html = notesToHtml('hi <img src=x onerror="alert(1)">\n\n<script>alert(2)</script>');
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
  });
});

describe("math in notes", () => {
  test("inline $…$ is kept as written in one span, not turned into emphasis", () => {
    const html = notesToHtml("Energy: $E = m c^2$ and $a_i + b_i$ for *all* i.");
    expect(html).toContain('<span class="math">$E = m c^2$</span>');
    expect(html).toContain('<span class="math">$a_i + b_i$</span>');
    expect(html).toContain("<em>all</em>");
    expect(html).not.toContain("<em>i + b</em>");
  });

  test("display $$…$$ is a block of its own", () => {
    expect(notesToHtml("Sum:\n\n$$\\sum_{i=1}^n x_i$$\n\nDone.")).toContain('<div class="math">$$\\sum_{i=1}^n x_i$$</div>');
  });

  test("prices are prose, and markup inside math stays text", () => {
    expect(notesToHtml("It costs $5 or $10.")).not.toContain("math");
    expect(notesToHtml("$<b>x</b>$")).toContain('<span class="math">$&#60;b&#62;x&#60;/b&#62;$</span>');
  });
});

describe("plain-text notes (lib/notes-text): shown as written, addresses as links", () => {
  test("an address keeps its underscores and works as a link; the sentence's full stop is not part of it", () => {
    expect(textSegments("See https://www.example.org/article135_3818.html.")).toEqual([
      { text: "See " },
      { text: "https://www.example.org/article135_3818.html", href: "https://www.example.org/article135_3818.html" },
      { text: "." },
    ]);
  });

  test("www. addresses open over https; mailto stays; a closing bracket the address does not open stays text", () => {
    expect(textSegments("(see www.example.org/a_(b)) or mailto:talk@example.org")).toEqual([
      { text: "(see " },
      { text: "www.example.org/a_(b)", href: "https://www.example.org/a_(b)" },
      { text: ") or " },
      { text: "mailto:talk@example.org", href: "mailto:talk@example.org" },
    ]);
  });

  test("nothing else is read: markdown, HTML, numbers and escapes are the text itself", () => {
    const text = "1. Eye contact\n**not bold** <b>x</b> \\1. javascript:alert(1) a_b";
    expect(textSegments(text)).toEqual([{ text }]);
  });
});

describe("one rule for addresses in notes (lib/notes-links), markdown or plain text", () => {
  /** The links of a markdown note, as marked writes them (href, text), entities decoded. */
  const markdownLinks = (source: string) =>
    [...notesToHtml(source).matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({ text: m[2]!.replace(/&amp;/g, "&"), href: decodeURI(m[1]!.replace(/&amp;/g, "&")) }));
  const textLinks = (source: string) => textSegments(source).filter((s): s is { text: string; href: string } => "href" in s);
  const link = (text: string, href = text) => ({ text, href });
  const CASES: [note: string, links: { text: string; href: string }[]][] = [
    ["See https://www.example.org/article135_3818.html.", [link("https://www.example.org/article135_3818.html")]],
    ["Is it https://example.org/faq? Yes: https://example.org/a;b, then https://example.org/c: done!", [link("https://example.org/faq"), link("https://example.org/a;b"), link("https://example.org/c")]],
    ["(see https://example.org/a_(b)), then www.example.org/x!", [link("https://example.org/a_(b)"), link("www.example.org/x", "https://www.example.org/x")]],
    ["“https://example.org/quoted” and [https://example.org/bracketed] and {https://example.org/braced} and 'https://example.org/single'", [link("https://example.org/quoted"), link("https://example.org/bracketed"), link("https://example.org/braced"), link("https://example.org/single")]],
    ["Write to mailto:talk@example.org?subject=Q or to talk@example.org.", [link("mailto:talk@example.org?subject=Q"), link("talk@example.org", "mailto:talk@example.org")]],
    ["Search https://example.org/?q=a&b=c#top, or not at all.", [link("https://example.org/?q=a&b=c#top")]],
  ];
  for (const [note, links] of CASES) {
    test(`${JSON.stringify(note)}: the same links in either format`, () => {
      expect(textLinks(note)).toEqual(links);
      expect(markdownLinks(note)).toEqual(links);
    });
  }
  test("what is not an address links in neither: a bare scheme, javascript:, a host without a dot", () => {
    for (const note of ["https:// alone", "javascript:alert(1)", "root@localhost", "www. and nothing"]) {
      expect(textLinks(note)).toEqual([]);
      expect(markdownLinks(note)).toEqual([]);
    }
  });
  test("a plain-text note keeps every character: its runs and links put together are the note", () => {
    const piece = fc.constantFrom("https://", "www.", "mailto:", "@", ".", "(", ")", "[", "]", "“", "”", "_", "*", "\\", "<b>", " ", "\n", "x", "example.org", "a_b");
    fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => textSegments(pieces.join("")).map((s) => s.text).join("") === pieces.join("")));
  });
});

describe("the notice before the talk about movies that cannot play (presenter/movie-notice)", () => {
  const movie = (slide: number, file: string, inDeck: boolean): SlideMedia => ({ id: file, kind: "file", slide, rect: { x: 0, y: 0, w: 1, h: 1 }, mime: "video/mp4", autoplay: false, loop: false, source: "page-annotation", movie: { file, annotation: "Movie", inDeck } });
  const name = (page: number) => `slide ${page}`;

  test("none when every movie plays (or there are none)", () => {
    expect(missingMoviesNotice([], name)).toBeNull();
    expect(missingMoviesNotice([movie(2, "clip.webm", true)], name)).toBeNull();
  });

  test("names each movie beside the PDF, with its slide, and says what the audience sees and what to do", () => {
    expect(missingMoviesNotice([movie(2, "clip.mp4", false), movie(3, "ok.webm", true)], name)).toBe(
      "A movie of this deck cannot play: “clip.mp4” (slide 2) is a file beside the PDF that the deck does not carry. The audience will see its poster instead. To play it, attach the file to the PDF under the same name (the check report says how) and present the deck again.",
    );
    expect(missingMoviesNotice([movie(2, "a.mp4", false), movie(4, "b.mp4", false), movie(5, "c.mp4", false)], name)).toStartWith("3 movies of this deck cannot play: “a.mp4” (slide 2), “b.mp4” (slide 4) and “c.mp4” (slide 5) are files beside the PDF");
  });
});

describe("markdown built from Typst text renders without a backslash", () => {
  test("escapeMarkdown's 1\\. renders as the text 1. (CommonMark honours it), not as a list and not as \\1.", () => {
    expect(notesToHtml(escapeMarkdown("1. Eye contact"))).toBe("<p>1. Eye contact</p>\n");
  });
});
