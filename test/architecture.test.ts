/**
 * The architecture the layout promises, checked on the import graph of src/: the MCP code
 * never imports the HTTP layer (no http ⇄ mcp cycle), the stdio `deckhand mcp` never loads
 * Elysia, the domain never imports Elysia, the storage backends are reached only through
 * store/, and the browser-safe code (src/deck, with its sidecar/) imports nothing of Bun or Node.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** Runtime imports of a module (type-only imports are erased and load nothing). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const match of text.matchAll(pattern)) found.push((match[1] ?? match[2])!);
  return found;
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const path = resolve(dirname(from), specifier);
  return existsSync(path) && statSync(path).isFile() ? path : null;
}

/** Every module reachable from `entry` at run time, and every package it names. */
function closure(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    for (const specifier of importsOf(file)) {
      const target = resolveImport(file, specifier);
      if (target) queue.push(target);
      else if (!specifier.startsWith(".")) packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);
    }
  }
  return { modules, packages };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));
}

const rel = (file: string) => relative(SRC, file);

describe("architecture", () => {
  test("the stdio `deckhand mcp` loads no Elysia and nothing of http/", () => {
    const { modules, packages } = closure(join(SRC, "cli/mcp.ts"));
    expect([...packages].filter((p) => p.includes("elysia"))).toEqual([]);
    expect([...modules].map(rel).filter((m) => m.startsWith("http/"))).toEqual([]);
  });

  test("mcp/ never imports http/ (http may use mcp, not the other way round)", () => {
    const offenders = sourceFiles(join(SRC, "mcp")).flatMap((file) =>
      readFileSync(file, "utf8").includes("../http/") ? [rel(file)] : [],
    );
    expect(offenders).toEqual([]);
  });

  test("the domain (handoff/, pdf/, deck/) never imports Elysia or store/", () => {
    const offenders = ["handoff", "pdf", "deck"].flatMap((dir) =>
      sourceFiles(join(SRC, dir)).flatMap((file) => {
        const text = readFileSync(file, "utf8");
        return /from "(elysia|@elysiajs\/[^"]*|[^"]*\/store\/[^"]*)"/.test(text) ? [rel(file)] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  test("only store/ and the composition root name a storage backend", () => {
    const offenders = sourceFiles(SRC).flatMap((file) => {
      const name = rel(file);
      if (name.startsWith("store/") || name === "runtime.ts" || name === "server.ts" || name === "cli/token.ts") return [];
      return /bun:sqlite|\bS3Client\b|new SQL\(|Bun\.SQL/.test(readFileSync(file, "utf8")) ? [name] : [];
    });
    expect(offenders).toEqual([]);
  });

  test("browser-safe code (deck/) imports nothing of Bun or Node at run time", () => {
    const offenders = ["deck"].flatMap((dir) =>
      sourceFiles(join(SRC, dir)).flatMap((file) => importsOf(file).filter((s) => /^(node:|bun:|bun$)/.test(s)).map((s) => `${rel(file)}: ${s}`)),
    );
    expect(offenders).toEqual([]);
  });
});
