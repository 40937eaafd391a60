/**
 * Bare Bun.serve baseline for the upload and download benchmarks, run as its own process:
 *
 *   bun bench/lib/baseline-server.ts PORT DIR
 *
 * - `POST /upload` streams the raw request body to a new file in DIR (a Bun FileSink, no
 *   parsing, no hashing, no fsync) and answers `{name, bytes}`.
 *   `?mode=` runs other ways of receiving, so the benchmark can show where deckhand's time
 *   goes (the last three run deckhand's own code from src/):
 *     sha256   the sink plus Bun.CryptoHasher SHA-256 of every chunk
 *     required the sink, SHA-256 and a durable commit (fsync the file, rename it, fsync the
 *              directory): the work any upload path that keeps its promises must do. This is
 *              the baseline of the upload budget ("within 1.1×").
 *     node     Readable.fromWeb(body) → fs.createWriteStream (node streams, no parsing)
 *     busboy   deckhand's receiveMultipartPdf: busboy → file, SHA-256 on its own thread
 *     fsync    busboy + LocalBlobStore.commit (fsync file, rename, fsync dir)
 *     pool     busboy + a PdfPool worker validates the file + LocalBlobStore.commit
 * - `DELETE /upload?name=` removes an uploaded file (outside any timing).
 * - `GET /file?path=` answers `new Response(Bun.file(path))`: the download baseline.
 * - `GET /healthz` answers 200.
 */
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { PdfPool } from "../../src/pdf/worker/pool.ts";
import { LocalBlobStore } from "../../src/store/files.ts";
import { receiveMultipartPdf } from "../../src/upload/receive.ts";

const port = Number(process.argv[2]);
const dir = process.argv[3];
if (!Number.isInteger(port) || !dir) {
  console.error("usage: bun bench/lib/baseline-server.ts PORT DIR");
  process.exit(2);
}
const blobs = new LocalBlobStore(dir);
const pool = new PdfPool({ workers: 2 });
pool.warm();
let counter = 0;

async function upload(request: Request, mode: string): Promise<Response> {
  if (!request.body) return new Response("no body", { status: 400 });
  const name = `upload-${process.pid}-${++counter}.bin`;
  const path = join(dir!, name);
  if (mode === "sink" || mode === "sha256" || mode === "required") {
    const sink = Bun.file(path).writer();
    const hash = mode === "sink" ? null : new Bun.CryptoHasher("sha256");
    let bytes = 0;
    for await (const chunk of request.body) {
      bytes += chunk.byteLength;
      hash?.update(chunk);
      sink.write(chunk);
    }
    await sink.end();
    if (mode === "required") {
      const file = await open(path, "r");
      await file.sync();
      await file.close();
      const kept = join(dir!, `kept-${name}`);
      await rename(path, kept);
      const directory = await open(dir!, "r");
      await directory.sync();
      await directory.close();
      return Response.json({ name: `kept-${name}`, bytes, sha256: hash?.digest("hex") });
    }
    return Response.json({ name, bytes, sha256: hash?.digest("hex") });
  }
  if (mode === "node") {
    await pipeline(Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>), createWriteStream(path, { flags: "wx" }));
    return Response.json({ name, bytes: Bun.file(path).size });
  }
  const received = await receiveMultipartPdf(request, blobs, 1024 * 1024 * 1024);
  if (mode === "pool") await pool.inspect(received.temp.path);
  if (mode === "fsync" || mode === "pool") {
    const id = `blob${counter}`;
    await blobs.commit(received.temp, id);
    blobs.settle(id);
    return Response.json({ name: `staged/${id}.pdf`, bytes: received.bytes, sha256: received.sha256 });
  }
  // busboy: keep the temp file until DELETE, like the other modes.
  const kept = join(dir!, name);
  renameSync(received.temp.path, kept);
  await received.temp.discard();
  return Response.json({ name, bytes: received.bytes, sha256: received.sha256 });
}

Bun.serve({
  port,
  hostname: "127.0.0.1",
  maxRequestBodySize: 1024 * 1024 * 1024,
  idleTimeout: 120,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return new Response("ok");
    if (url.pathname === "/upload" && request.method === "POST") return upload(request, url.searchParams.get("mode") ?? "sink");
    if (url.pathname === "/upload" && request.method === "DELETE") {
      const name = url.searchParams.get("name") ?? "";
      // Only names this server handed out, inside DIR.
      if (/^(staged\/)?[A-Za-z0-9._-]+$/.test(name)) rmSync(join(dir!, name.startsWith("staged/") ? "staged" : "", basename(name)), { force: true });
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/file" && request.method === "GET") return new Response(Bun.file(url.searchParams.get("path") ?? ""));
    return new Response("not found", { status: 404 });
  },
});
