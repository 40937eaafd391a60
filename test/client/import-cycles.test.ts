/**
 * The browser app's modules form no import cycle, type-only imports included
 * (presenter/actions.ts ⇄ presenter/tool-actions.ts was one; their shared types now
 * live in presenter/action-types.ts). A cycle makes the order modules start in matter and
 * makes a module impossible to read on its own.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const CLIENT = resolve(import.meta.dir, "../../client/src");

/** Every relative import and re-export of a module, type-only ones too, inside client/src. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/gm)) {
    const target = resolve(dirname(file), match[1]!);
    if (target.startsWith(CLIENT) && existsSync(target)) found.push(target);
  }
  return found;
}

function cycles(): string[][] {
  const files = readdirSync(CLIENT, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts")).map((name) => join(CLIENT, name));
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of importsOf(file)) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(CLIENT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe("client modules", () => {
  test("no import cycle anywhere in client/src", () => {
    expect(cycles()).toEqual([]);
  });
});
