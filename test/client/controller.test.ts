/**
 * The client controller through app.handle(): pages, headers, the service worker and the
 * embedded assets. Builds the client first (scripts/build-client.ts is fast).
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia } from "elysia";

// The timeout of each test and hook here: ~10× the client build its beforeAll runs on a loaded 2-vCPU machine (5.4 s).
setDefaultTimeout(60_000);

let app: Elysia;
let files: Record<string, { path: string; contentType: string }>;

beforeAll(async () => {
  const build = Bun.spawnSync([process.execPath, "run", "scripts/build-client.ts"], { cwd: `${import.meta.dir}/../..`, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  const gen = await import("../../src/http/client-assets.gen.ts");
  files = gen.clientFiles;
  const { clientController } = await import("../../src/http/client.ts");
  app = new Elysia().use(clientController());
});

const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

describe("client pages", () => {
  for (const path of ["/", "/start/AbCdEf", "/present/0123456789abcdef", "/view/0123456789abcdef", "/check"]) {
    test(`${path} is an HTML page with a strict CSP and no-referrer`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).toContain("worker-src 'self' blob:");
      // URL media: https sources for images, media and the offline copy — no http:, no *.
      expect(csp).toContain("media-src 'self' blob: https:;");
      expect(csp).toContain("img-src 'self' blob: data: https:;");
      expect(csp).toContain("connect-src 'self' https:;");
      expect(csp).not.toMatch(/\bhttp:|\*/);
      expect(csp).toContain("frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const html = await res.text();
      // No inline script: every <script> has a src.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).toMatch(/<script type="module" src="\/assets\/[a-z]+-[a-z0-9]+\.js"><\/script>/);
    });
  }

  test("each page preloads every chunk its script reaches through static imports, and nothing else", async () => {
    /** The chunks a served script imports statically (`import … from"./chunk-…"`, `import"./chunk-…"`). */
    const importsOf = async (url: string) => {
      const res = await get(url);
      expect(res.status).toBe(200);
      const code = await res.text();
      return [...code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/(chunk-[a-z0-9]+\.js)"/g)].map((m) => `/assets/${m[1]}`);
    };
    for (const path of ["/", "/start/AbCdEf", "/present/0123456789abcdef", "/view/0123456789abcdef", "/check"]) {
      const html = await (await get(path)).text();
      const entry = /<script type="module" src="(\/assets\/[a-z]+-[a-z0-9]+\.js)"><\/script>/.exec(html)![1]!;
      const reached = new Set<string>();
      const queue = await importsOf(entry);
      while (queue.length) {
        const chunk = queue.shift()!;
        if (reached.has(chunk)) continue;
        reached.add(chunk);
        queue.push(...(await importsOf(chunk)));
      }
      const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
      expect(new Set(preloaded)).toEqual(reached);
      if (path.startsWith("/present/")) expect(reached.size).toBeGreaterThan(3); // the presenter's path has chunks to preload
    }
  });

  test("a page answers 304 to its ETag", async () => {
    const first = await get("/");
    const etag = first.headers.get("etag")!;
    expect((await get("/", { "if-none-match": etag })).status).toBe(304);
  });
});

describe("service worker and assets", () => {
  test("/sw.js is served at its stable URL and always revalidated", async () => {
    const res = await get("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(body).toContain("deckhand-shell-");
    // It precaches the pages, the bundles and mupdf's WASM.
    expect(body).toContain("/present/_");
    expect(body).toContain("mupdf-wasm.wasm");
  });

  test("every hashed asset is served with a long immutable cache", async () => {
    const assets = Object.keys(files).filter((p) => p.startsWith("/assets/"));
    expect(assets.length).toBeGreaterThan(5);
    for (const path of assets) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("mupdf's WASM is served as application/wasm: gzip when accepted, the same bytes inflated otherwise", async () => {
    const key = Object.keys(files).find((p) => p.endsWith("mupdf-wasm.wasm.gz"))!;
    // Embedded once, compressed; no raw or brotli copy rides in the binary.
    expect(Object.keys(files).filter((p) => p.includes("mupdf-wasm.wasm"))).toEqual([key]);
    const path = key.replace(/\.gz$/, "");
    const plain = await get(path);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("application/wasm");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const plainBytes = new Uint8Array(await plain.arrayBuffer());
    expect(plainBytes).toEqual(new Uint8Array(await Bun.file("node_modules/mupdf/dist/mupdf-wasm.wasm").arrayBuffer()));
    const gz = await get(path, { "accept-encoding": "gzip, deflate, br" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    const gzBytes = new Uint8Array(await gz.arrayBuffer());
    expect(gzBytes.byteLength).toBeLessThan(plainBytes.byteLength / 2);
    expect(Bun.gunzipSync(gzBytes)).toEqual(plainBytes);
  });

  test("the API docs' script is served from its gzip copy, revalidated daily, and never precached", async () => {
    expect(Object.keys(files).filter((p) => p.startsWith("/docs/"))).toEqual(["/docs/scalar.js.gz"]);
    const gz = await get("/docs/scalar.js", { "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("cache-control")).toBe("public, max-age=86400");
    const original = new Uint8Array(await Bun.file("node_modules/@scalar/api-reference/dist/browser/standalone.js").arrayBuffer());
    expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(original);
    expect(new Uint8Array(await (await get("/docs/scalar.js")).arrayBuffer())).toEqual(original);
    expect(await (await get("/sw.js")).text()).not.toContain("/docs/");
  });

  test("the build is deterministic", async () => {
    const again = Bun.spawnSync([process.execPath, "run", "scripts/build-client.ts"], { cwd: `${import.meta.dir}/../..`, stdout: "pipe" });
    expect(again.exitCode).toBe(0);
    const gen = await Bun.file(`${import.meta.dir}/../../src/http/client-assets.gen.ts`).text();
    for (const path of Object.keys(files)) expect(gen).toContain(JSON.stringify(path));
  });
});
