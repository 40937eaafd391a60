/**
 * An app wired to a fresh temp data directory and a movable clock, driven through
 * `app.handle(new Request(…))` without opening a port.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/app.ts";
import { type Config, testConfig } from "../../src/base/config.ts";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";
import { type Logger, silentLogger } from "../../src/base/log.ts";
import { PdfPool } from "../../src/pdf/worker/pool.ts";
import { createRuntime } from "../../src/composition/runtime.ts";

let sharedPdf: PdfPool | undefined;
/** One pool of PDF worker processes for every test app of a test process (they exit with it). */
export function testPdfReader(): PdfPool {
  sharedPdf ??= new PdfPool({ workers: 2 });
  return sharedPdf;
}

export const BASE = "http://deckhand.test";

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  deps: ReturnType<typeof createRuntime>["deps"];
  dataDir: string;
  /** Current fake time (ms); move it with `advance`. */
  now(): number;
  advance(ms: number): void;
  handle(path: string, init?: RequestInit): Promise<Response>;
  /**
   * POST a multipart form with `bytes` as its file. `declared` sends the body with its
   * Content-Length, as HTTP clients do (a small one is then received whole in memory); without
   * it the body streams with no declared length.
   */
  upload(bytes: Uint8Array | string, options?: { filename?: string; type?: string; token?: string; path?: string; headers?: Record<string, string>; declared?: boolean }): Promise<Response>;
  present(bytes: Uint8Array, options?: { filename?: string; token?: string; declared?: boolean }): Promise<HandoffRecord & { token: string }>;
  /** Files in the staged dir. */
  stagedFiles(): string[];
  row(id: string): Record<string, unknown> | null;
  close(): void;
}

export function makeTestApp(overrides: Partial<Config> = {}, options: { logger?: Logger; pdf?: PdfPool } = {}): TestApp {
  // A given data dir (e.g. on a small tmpfs) is the caller's to remove; a made one is ours.
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "deckhand-test-"));
  let time = Date.parse("2026-11-22T10:00:00Z");
  const config = testConfig({ dataDir, rateLimit: 0, ...overrides });
  const runtime = createRuntime(config, { clock: () => time, logger: options.logger ?? silentLogger, pdf: options.pdf ?? testPdfReader() });
  const app = buildApp(runtime.deps);
  const handle = (path: string, init?: RequestInit) => app.handle(new Request(`${BASE}${path}`, init));
  const upload: TestApp["upload"] = async (bytes, o = {}) => {
    const form = new FormData();
    form.append("file", new Blob([bytes as BlobPart], { type: o.type ?? "application/pdf" }), o.filename ?? "deck.pdf");
    const init = { method: "POST", body: form, headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers } };
    return handle(o.path ?? "/api/present", o.declared ? await withDeclaredLength(init) : init);
  };
  return {
    app,
    deps: runtime.deps,
    dataDir,
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    handle,
    upload,
    present: async (bytes, o = {}) => {
      const res = await upload(bytes, o);
      if (res.status !== 200) throw new Error(`present failed: ${res.status} ${await res.text()}`);
      const record = (await res.json()) as HandoffRecord;
      return { ...record, token: new URL(record.url).hash.replace(/^#t=/, "") };
    },
    stagedFiles: () => readdirSync(join(dataDir, "staged")).sort(),
    row: (id) => {
      const db = new Database(join(dataDir, "deckhand.db"), { readonly: true });
      try {
        return db.query("SELECT * FROM sessions WHERE id = ?").get(id) as Record<string, unknown> | null;
      } finally {
        db.close();
      }
    },
    close: () => {
      void runtime.close();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The same request with its body serialised and its length declared (Content-Length, and the
 * multipart boundary the serialisation chose), as an HTTP client sends it: `app.handle()` gets a
 * streaming body with no declared length otherwise.
 */
export async function withDeclaredLength(init: RequestInit): Promise<RequestInit> {
  // Serialised on its own: a Request given headers too may leave the body's type out.
  const serialised = new Response(init.body);
  const headers = new Headers(init.headers);
  const type = serialised.headers.get("content-type");
  if (type && !headers.has("content-type")) headers.set("content-type", type);
  const bytes = new Uint8Array(await serialised.arrayBuffer());
  headers.set("content-length", String(bytes.length));
  return { ...init, body: bytes, headers };
}

/** Assert-friendly view of a problem response. */
export async function problemOf(res: Response): Promise<{ status: number; contentType: string | null; body: Record<string, unknown> }> {
  return { status: res.status, contentType: res.headers.get("content-type"), body: (await res.json()) as Record<string, unknown> };
}
