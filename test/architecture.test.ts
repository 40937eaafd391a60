/**
 * The architecture the layout promises, checked on the import graph of src/ and client/src/:
 * the MCP code never imports the HTTP layer (no http ⇄ mcp cycle), the stdio `deckhand mcp`
 * never loads Elysia, the domain never imports Elysia, the storage backends are reached only
 * through store/, the browser-safe code (src/deck, src/shared) imports nothing of Bun or Node,
 * the shared vocabulary (src/shared) imports nothing server-only, the ports (src/core) and
 * helpers (src/tools) import no domain, the domains reach the PDF workers only through the
 * PdfReader port, live/ stays behind its ports and (with auth/) takes nothing from handoff/,
 * what every layer stands on (base/) imports only the shared vocabulary and the helpers, no
 * file in src/ is over 400 lines, and the browser client takes from src/ only the shared
 * vocabulary and the browser-safe deck reader. In the client: the layers below the roles
 * (lib/, storage/, worker/, model/) name no role, model/ is the vocabulary at the bottom,
 * live/ is split by who uses it, the export's worker starts no worker of its own, and no file
 * in client/src/ is over 400 lines either.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const CLIENT = join(ROOT, "client", "src");

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

/** Every relative import of a module, type-only ones included (a type names a dependency too). */
function allImportsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const match of text.matchAll(pattern)) found.push((match[1] ?? match[2])!);
  return found;
}

/** `file: target` for each import of a file under `dirs` (folders of src/) that `allowed` refuses. */
function importOffenders(dirs: string[], allowed: (target: string, specifier: string) => boolean, root = SRC): string[] {
  return dirs.flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((file) =>
      allImportsOf(file).flatMap((specifier) => {
        const target = specifier.startsWith(".") ? relative(SRC, resolve(dirname(file), specifier)) : specifier;
        return allowed(target, specifier) ? [] : [`${relative(ROOT, file)}: ${specifier}`];
      }),
    ),
  );
}

/** A path relative to src/ that lies inside one of `dirs` (e.g. "shared/", "base/errors.ts"). */
const inside = (target: string, dirs: string[]) => dirs.some((dir) => (dir.endsWith("/") ? target.startsWith(dir) : target === dir));

/** The most lines a source file may have: a longer one holds more than one job. */
const MAX_LINES = 400;

/** The files under `dir` over MAX_LINES lines, with their counts; generated files (*.gen.ts) are written by scripts, not by hand. */
function longFiles(dir: string): string[] {
  return sourceFiles(dir)
    .filter((file) => !file.endsWith(".gen.ts"))
    .flatMap((file) => {
      const lines = readFileSync(file, "utf8").split("\n").length - 1;
      return lines > MAX_LINES ? [`${relative(ROOT, file)}: ${lines} lines`] : [];
    });
}

/** A client import's target as a path under client/src/ (e.g. "live/talk/poll-bars.ts"), from importOffenders' src/-relative one. */
const inClient = (target: string) => relative(CLIENT, resolve(SRC, target));

/** The client's roles: the presenter window, live talks, and the pages; the layers below them name none of them. */
const CLIENT_ROLES = ["presenter/", "live/", "pages/"];

describe("client layers", () => {
  test("the client's lower layers (lib/, storage/, worker/, model/) never import presenter/, live/ or pages/", () => {
    expect(importOffenders(["lib", "storage", "worker", "model"], (target, specifier) => !specifier.startsWith(".") || !inside(inClient(target), CLIENT_ROLES), CLIENT)).toEqual([]);
  });

  test("the client's vocabulary (model/) imports only itself, src/shared and the browser-safe src/deck", () => {
    // src/deck: the stored notes layout and timer overrides are the deck reader's own types (deck-settings).
    expect(importOffenders(["model"], (target) => inside(inClient(target), ["model/"]) || inside(target, ["shared/", "deck/"]), CLIENT)).toEqual([]);
  });

  test("a page's parts (pages/) are imported by nothing but the pages", () => {
    const others = readdirSync(CLIENT).filter((dir) => dir !== "pages" && statSync(join(CLIENT, dir)).isDirectory());
    expect(importOffenders(others, (target, specifier) => !specifier.startsWith(".") || !inside(inClient(target), ["pages/"]), CLIENT)).toEqual([]);
  });

  test("live/ by role: talk/ and connection/ serve every role and import none; the presenter's, the viewer's and the remote's parts import none of each other's", () => {
    const roles = ["live/presenter/", "live/viewer/", "live/remote/"];
    expect(importOffenders(["live/talk", "live/connection"], (target) => !inside(inClient(target), roles), CLIENT)).toEqual([]);
    for (const role of roles) {
      const others = roles.filter((r) => r !== role);
      expect(importOffenders([role.slice(0, -1)], (target) => !inside(inClient(target), others), CLIENT)).toEqual([]);
    }
  });

  test("the export's worker starts no worker: it reaches the render worker the page started over a port", () => {
    // Firefox's Worker constructor, called in a worker, sometimes never returned: the export
    // stood at "Opening the deck" for good (client/export/export-protocol's ExportStart).
    const modules = [...closure(join(CLIENT, "export/export-worker.ts")).modules];
    expect(modules).toContain(join(CLIENT, "lib/renderer.ts"));
    const offenders = modules.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      // The renderer starts a worker only when it is given no port: what a page does.
      const starts = file === join(CLIENT, "lib/renderer.ts") ? [] : [...text.matchAll(/new (?:Shared)?Worker\(/g)];
      return [...starts, ...text.matchAll(/new Renderer\(\s*\)/g)].map((m) => `${relative(CLIENT, file)}: ${m[0]}`);
    });
    expect(offenders).toEqual([]);
  });

  test("no file in client/src/ is over 400 lines: a longer one holds more than one job, and is split by job", () => {
    expect(longFiles(CLIENT)).toEqual([]);
  });
});

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

  test("the domain (handoff/, live/, pdf/, deck/) and the shared homes (core/, shared/, tools/) never import Elysia or store/", () => {
    const offenders = ["handoff", "live", "pdf", "deck", "core", "shared", "tools"].flatMap((dir) =>
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
      if (name.startsWith("store/") || name === "composition/runtime.ts" || name === "server.ts" || name === "cli/token.ts") return [];
      return /bun:sqlite|\bS3Client\b|new SQL\(|Bun\.SQL/.test(readFileSync(file, "utf8")) ? [name] : [];
    });
    expect(offenders).toEqual([]);
  });

  test("browser-safe code (deck/, shared/) imports nothing of Bun or Node at run time", () => {
    const offenders = ["deck", "shared"].flatMap((dir) =>
      sourceFiles(join(SRC, dir)).flatMap((file) => importsOf(file).filter((s) => /^(node:|bun:|bun$)/.test(s)).map((s) => `${rel(file)}: ${s}`)),
    );
    expect(offenders).toEqual([]);
  });

  test("the shared vocabulary (shared/) imports only itself, the browser-safe deck/ and TypeBox", () => {
    expect(importOffenders(["shared"], (target, specifier) => inside(target, ["shared/", "deck/"]) || specifier === "@sinclair/typebox")).toEqual([]);
  });

  test("the ports (core/) name no implementation: only each other, and the types they speak of", () => {
    // pdf-reader.ts speaks of what a PDF read answers in deck/'s report types: types only, erased at run time.
    const typeOnly = sourceFiles(join(SRC, "core")).flatMap((file) =>
      importsOf(file).filter((specifier) => !inside(relative(SRC, resolve(dirname(file), specifier)), ["core/"])).map((s) => `${rel(file)}: ${s}`),
    );
    expect(typeOnly).toEqual([]);
    expect(importOffenders(["core"], (target) => inside(target, ["core/", "shared/", "deck/"]))).toEqual([]);
  });

  test("what every layer stands on (base/: configuration, log, the error type) imports only the shared vocabulary and the helpers", () => {
    const runtime = (target: string) => target.startsWith("node:");
    expect(importOffenders(["base"], (target) => runtime(target) || inside(target, ["base/", "shared/", "tools/"]))).toEqual([]);
  });

  test("the helpers of no domain (tools/) import no domain", () => {
    // The runtime's own modules and TypeBox (the shared vocabulary's schema library) are no domain.
    const runtime = (target: string) => target === "bun" || target.startsWith("node:") || target.startsWith("@sinclair/typebox");
    expect(importOffenders(["tools"], (target) => runtime(target) || inside(target, ["tools/", "shared/", "base/errors.ts"]))).toEqual([]);
  });

  test("the domains reach the PDF workers only through the PdfReader port (core/pdf-reader)", () => {
    expect(importOffenders(["handoff", "live", "mcp", "upload", "core"], (target) => !target.startsWith("pdf/worker/"))).toEqual([]);
  });

  test("the upload receivers (upload/) hand uploads to the domains without importing one", () => {
    expect(importOffenders(["upload"], (target) => !inside(target, ["handoff/", "live/", "http/", "mcp/"]))).toEqual([]);
  });

  test("live/ and auth/ take nothing from handoff/: what they share with it lives in security/, upload/ and core/", () => {
    expect(importOffenders(["live", "auth"], (target) => !inside(target, ["handoff/"]))).toEqual([]);
  });

  test("what the domains share (security/) imports no domain: only the ports, the base and the helpers", () => {
    expect(importOffenders(["security"], (target) => inside(target, ["security/", "core/", "base/", "tools/", "shared/"]))).toEqual([]);
  });

  test("live/ stays behind its ports: no http/, mcp/, store/, or PDF reading of its own", () => {
    expect(importOffenders(["live"], (target) => !inside(target, ["http/", "mcp/", "store/", "pdf/", "cli/", "app.ts", "server.ts", "composition/"]))).toEqual([]);
  });

  test("no file in src/ is over 400 lines: a longer one holds more than one job, and is split by job", () => {
    expect(longFiles(SRC)).toEqual([]);
  });

  test("the browser client takes from src/ only the shared vocabulary and the browser-safe deck reader", () => {
    // src/deck is there because the render worker runs the server's own deck reading (acceptance
    // rule, page labels, sidecars, notes layouts) on this browser's mupdf: one rule on both sides.
    const offenders = importOffenders(
      ["."],
      (target, specifier) => !specifier.startsWith(".") || target.startsWith("../client/") || inside(target, ["shared/", "deck/"]),
      CLIENT,
    );
    expect(offenders).toEqual([]);
  });
});
