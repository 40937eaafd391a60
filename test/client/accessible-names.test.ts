/**
 * An element whose role forbids a name (ARIA's generic: a div or a span without a role, a p, a
 * code…) may carry no aria-label or aria-labelledby: screen readers ignore it there, and axe
 * calls it a serious violation (aria-prohibited-attr) — but only when the element has no text at
 * that moment, so the browser suites' axe checks caught it now and then (the player's stage box,
 * empty while a slide is drawn, failed once in WebKit). This reads every page's HTML and every
 * element the client builds with `h(…)` on one line, whatever state a page is in.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..", "..");
const PAGES = join(ROOT, "client", "pages");

/** Elements whose implicit role is one a name is prohibited on (generic, paragraph, code, emphasis, strong, …). */
const NAMELESS = new Set(["div", "span", "p", "code", "pre", "em", "strong", "b", "i", "small", "sub", "sup", "del", "ins", "s", "u", "q"]);

/** The offending tags of `html`: an element of NAMELESS with a name attribute and no role. */
function namedGenerics(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/g)) {
    const [tag, name, attrs] = [m[0], m[1]!, m[2]!];
    if (NAMELESS.has(name) && /\saria-label(ledby)?=/.test(attrs) && !/\srole=/.test(attrs)) found.push(tag);
  }
  return found;
}

/** The same for the client's `h("div", { … })` calls whose attributes are on one line. */
function namedGenericCalls(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\bh\("([a-z][a-z0-9]*)",\s*(\{[^{}\n]*\})/g)) {
    const [call, name, attrs] = [m[0], m[1]!, m[2]!];
    if (NAMELESS.has(name) && /["']aria-label(ledby)?["']\s*:/.test(attrs) && !/\brole\s*:/.test(attrs)) found.push(call);
  }
  return found;
}

describe("no name on an element whose role forbids one", () => {
  test("the checks find what they look for", () => {
    expect(namedGenerics('<div class="a" aria-label="x"><span aria-labelledby="y">t</span><div role="group" aria-label="ok"><nav aria-label="fine">')).toEqual(['<div class="a" aria-label="x">', '<span aria-labelledby="y">']);
    expect(namedGenericCalls('h("div", { class: "a", "aria-label": "x" }); h("div", { role: "group", "aria-label": "ok" }); h("button", { "aria-label": "ok" })')).toEqual(['h("div", { class: "a", "aria-label": "x" }']);
  });

  test("every page's HTML", () => {
    const pages = readdirSync(PAGES).filter((f) => f.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(5);
    const found = pages.flatMap((f) => namedGenerics(readFileSync(join(PAGES, f), "utf8")).map((tag) => `${f}: ${tag}`));
    expect(found).toEqual([]);
  });

  test("every element the client builds on one line", () => {
    const files = [...new Glob("client/src/**/*.ts").scanSync({ cwd: ROOT })];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => namedGenericCalls(readFileSync(join(ROOT, f), "utf8")).map((call) => `${relative(ROOT, join(ROOT, f))}: ${call}`));
    expect(found).toEqual([]);
  });
});
