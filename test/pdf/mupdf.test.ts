/**
 * Loading mupdf (pdf/mupdf): its WASM compiled from a stream, once per process however many
 * copies of the module the process holds, a broken source a rejection, and a pending compile
 * keeping the process alive. Each case runs in a process of its own: the compile is kept on a
 * global for the whole process.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";

// The timeout of each test: ~10× a child's compile (~0.4 s) on a loaded 2-vCPU machine.
setDefaultTimeout(30_000);

const MUPDF = join(import.meta.dir, "..", "..", "src", "pdf", "mupdf.ts");
const PACKAGE_WASM = join(import.meta.dir, "..", "..", "node_modules", "mupdf", "dist", "mupdf-wasm.wasm");

/** Run `code` (an ES module) in a fresh bun process. */
async function child(code: string) {
  const proc = Bun.spawn([process.execPath, "--eval", code], { stdout: "pipe", stderr: "pipe" });
  const [out, err, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out: out.trim(), err, exitCode };
}

describe("pdf/mupdf", () => {
  test("a process whose only work left is the compile waits for it (oven-sh/bun#25145)", async () => {
    // The whole WASM handed over at once: the stream is read at once and only the compile remains.
    // Without the keep-alive, Bun exited 0 here every time with nothing printed.
    const run = await child(`
      import { readFileSync } from "node:fs";
      import { compileMupdfWasm, useMupdfWasm } from ${JSON.stringify(MUPDF)};
      const bytes = readFileSync(${JSON.stringify(PACKAGE_WASM)});
      useMupdfWasm(() => new Response(bytes).body);
      compileMupdfWasm().then((module) => console.log(module instanceof WebAssembly.Module ? "compiled" : "not a module"));
    `);
    expect(run).toMatchObject({ out: "compiled", exitCode: 0 });
  });

  test("every copy of the module gets the same compile, and mupdf loads from it", async () => {
    // In the binary each command is a module graph of its own with its own copy of pdf/mupdf.
    const run = await child(`
      const a = await import(${JSON.stringify(MUPDF)});
      const b = await import(${JSON.stringify(MUPDF + "?copy")});
      const same = a !== b && a.compileMupdfWasm() === b.compileMupdfWasm();
      const mupdf = await b.loadMupdf();
      console.log(same, typeof mupdf.PDFDocument);
    `);
    expect(run).toMatchObject({ out: "true function", exitCode: 0 });
  });

  test("a source that is not WASM, breaks off, or throws rejects the load rather than hanging it", async () => {
    const sources = {
      "not WASM": "() => new Response(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])).body",
      "not gzip": `() => new Response(new Uint8Array(100).fill(7)).body.pipeThrough(new DecompressionStream("gzip"))`,
      throws: `() => { throw new Error("no source"); }`,
    };
    for (const [name, source] of Object.entries(sources)) {
      const run = await child(`
        import { loadMupdf, useMupdfWasm } from ${JSON.stringify(MUPDF)};
        useMupdfWasm(${source});
        loadMupdf().then(() => console.log("loaded"), (error) => console.log("rejected: " + error.name));
      `);
      expect({ name, ...run, err: undefined }).toMatchObject({ name, out: expect.stringMatching(/^rejected: /), exitCode: 0 });
    }
  });
});
