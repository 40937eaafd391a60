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
