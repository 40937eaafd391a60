/**
 * The docs hold together: every relative link in README.md and docs/ names a file that exists,
 * and every `#anchor` names a heading of its target (GitHub's slugs). The README is a map of
 * docs/, so a moved or renamed page fails here instead of leaving a dead link.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks (a `#` there is a shell comment, a `](` is code). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's heading anchor: lower case, punctuation dropped (not - or _), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(path, "utf8")).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

const FILES = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

describe("README.md and docs/", () => {
  test("docs/ has pages by audience, and the README links every one of them", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const pages = FILES.slice(1).map((f) => relative(ROOT, f));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((p) => !readme.includes(`](${p})`))).toEqual([]);
  });

  test("the README stays a front page (≤ 250 lines)", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(250);
  });

  for (const file of FILES) {
    test(`${relative(ROOT, file)}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const match of prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const resolved = path ? resolve(dirname(file), path) : file;
        if (!existsSync(resolved)) broken.push(`${target}: no such file`);
        else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    });
  }
});
