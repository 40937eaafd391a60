import { describe, expect, test } from "bun:test";
import { notesToHtml } from "../../client/src/lib/notes-markdown.ts";

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
