/**
 * upload/receive's two ways of taking an upload: a body that declares a small length is read
 * whole into a reused buffer (its chunks released as they are copied), one without a length or
 * over BUFFERED_BODY_BYTES is streamed. Both must give the same file, digest and name, answer a
 * bad body alike, and leave nothing behind.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TempFile } from "../../src/core/blobs.ts";
import { LocalBlobStore } from "../../src/store/files.ts";
import { BUFFERED_BODY_BYTES, receiveMultipartPdf } from "../../src/upload/receive.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.6 s).
setDefaultTimeout(30_000);

const dataDir = mkdtempSync(join(tmpdir(), "deckhand-receive-"));
const blobs = new LocalBlobStore(dataDir);
afterAll(async () => {
  await blobs.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A multipart body holding `file` as the form field "file", and its content type. */
async function multipart(file: Uint8Array, filename = "deck.pdf"): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  form.append("title", "ignored");
  form.append("file", new Blob([file as BlobPart], { type: "application/pdf" }), filename);
  const response = new Response(form);
  return { type: response.headers.get("content-type")!, body: new Uint8Array(await response.arrayBuffer()) };
}

/** `bytes` cut into chunks of `size`, each owning its own buffer (as Bun's body chunks do). */
function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.slice(offset, offset + size));
  return chunks;
}

/**
 * A request whose body streams `chunks` (then stops: `stall` keeps it open without sending),
 * declaring `declared` bytes when given.
 */
function requestOf(chunks: Uint8Array[], type: string, options: { declared?: number; stall?: boolean } = {}): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (!options.stall) controller.close();
    },
  });
  const headers: Record<string, string> = { "content-type": type };
  if (options.declared !== undefined) headers["content-length"] = String(options.declared);
  return new Request("http://deckhand.test/api/present", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** The staged dir holds nothing (no temp file left behind). */
const staged = () => readdirSync(join(dataDir, "staged"));

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, Math.min(length, offset + 65_536)));
  return bytes;
}

describe("receiving an upload whole or streamed", () => {
  test("a declared small body is read whole, one without a length is streamed: the same file, digest and name", async () => {
    const file = randomBytes(700_000);
    const { body, type } = await multipart(file, "Q3 review.pdf");
    const wholeChunks = chunksOf(body, 64 * 1024);
    const whole = await receiveMultipartPdf(requestOf(wholeChunks, type, { declared: body.length }), blobs, 10 * 1024 * 1024);
    const streamedChunks = chunksOf(body, 64 * 1024);
    const streamed = await receiveMultipartPdf(requestOf(streamedChunks, type), blobs, 10 * 1024 * 1024);
    try {
      for (const upload of [whole, streamed]) {
        expect(upload.bytes).toBe(file.length);
        expect(upload.sha256).toBe(sha256(file));
        expect(upload.uploadName).toBe("Q3 review.pdf");
        expect(readFileSync(upload.temp.path).equals(file)).toBe(true);
      }
      // Read whole: every chunk was copied and its memory handed back at once (detached).
      expect(wholeChunks.every((chunk) => chunk.byteLength === 0)).toBe(true);
      // Streamed: the chunks are left to the garbage collector.
      expect(streamedChunks.every((chunk) => chunk.byteLength > 0)).toBe(true);
    } finally {
      await whole.temp.discard();
      await streamed.temp.discard();
    }
    expect(staged()).toEqual([]);
  });

  test("a declared body over BUFFERED_BODY_BYTES is streamed", async () => {
    const file = randomBytes(BUFFERED_BODY_BYTES + 1000);
    const { body, type } = await multipart(file);
    const chunks = chunksOf(body, 256 * 1024);
    const upload = await receiveMultipartPdf(requestOf(chunks, type, { declared: body.length }), blobs, 10 * 1024 * 1024);
    try {
      expect(upload.sha256).toBe(sha256(file));
      expect(chunks.every((chunk) => chunk.byteLength > 0)).toBe(true);
    } finally {
      await upload.temp.discard();
    }
  });

  test("many small uploads at once each get their own bytes and digest (the body buffers are shared out and reused)", async () => {
    const files = Array.from({ length: 40 }, (_, i) => randomBytes(10_000 + i * 25_013));
    const uploads = await Promise.all(
      files.map(async (file) => {
        const { body, type } = await multipart(file);
        return receiveMultipartPdf(requestOf(chunksOf(body, 32 * 1024), type, { declared: body.length }), blobs, 10 * 1024 * 1024);
      }),
    );
    try {
      expect(uploads.map((u) => u.sha256)).toEqual(files.map(sha256));
      uploads.forEach((upload, i) => expect(readFileSync(upload.temp.path).equals(files[i]!)).toBe(true));
    } finally {
      for (const upload of uploads) await upload.temp.discard();
    }
    // Again, now from reused buffers holding the last uploads' bytes: nothing of them leaks in.
    const again = randomBytes(5000);
    const { body, type } = await multipart(again);
    const upload = await receiveMultipartPdf(requestOf([body.slice()], type, { declared: body.length }), blobs, 10 * 1024 * 1024);
    expect(readFileSync(upload.temp.path).equals(again)).toBe(true);
    await upload.temp.discard();
  });

  test("a kept upload is made durable through the descriptor it was written with", async () => {
    const file = randomBytes(50_000);
    for (const declared of [true, false]) {
      const { body, type } = await multipart(file);
      const synced: Array<number | undefined> = [];
      // The store's own temp file, its sync observed.
      const store = {
        createTemp(): TempFile {
          const temp = blobs.createTemp();
          return { ...temp, path: temp.path, sync: (fd?: number) => (synced.push(fd), temp.sync(fd)) };
        },
      };
      const upload = await receiveMultipartPdf(requestOf([body], type, declared ? { declared: body.length } : {}), store, 10 * 1024 * 1024, { durable: true });
      expect(synced).toHaveLength(1);
      expect(typeof synced[0]).toBe("number");
      // stage() asks again: the same, finished sync, not a second one.
      await upload.temp.sync();
      expect(synced).toHaveLength(2);
      await upload.temp.discard();
    }
  });

  describe("bad bodies, answered alike either way, nothing left behind", () => {
    for (const declared of [true, false]) {
      const how = declared ? "whole" : "streamed";

      test(`${how}: a body cut off before its end is 400 BAD_REQUEST`, async () => {
        const { body, type } = await multipart(randomBytes(100_000));
        const cut = body.slice(0, 60_000);
        const request = requestOf([cut], type, declared ? { declared: body.length } : {});
        await expect(receiveMultipartPdf(request, blobs, 10 * 1024 * 1024)).rejects.toMatchObject({ code: "BAD_REQUEST", status: 400 });
        expect(staged()).toEqual([]);
      });

      test(`${how}: a body that stops arriving is 408 REQUEST_TIMEOUT`, async () => {
        const { body, type } = await multipart(randomBytes(100_000));
        const request = requestOf([body.slice(0, 30_000)], type, { ...(declared ? { declared: body.length } : {}), stall: true });
        await expect(receiveMultipartPdf(request, blobs, 10 * 1024 * 1024, { idleMs: 150 })).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", status: 408 });
        expect(staged()).toEqual([]);
      });

      test(`${how}: a file over the limit is 413 FILE_TOO_LARGE`, async () => {
        const { body, type } = await multipart(randomBytes(200_000));
        const request = requestOf(chunksOf(body, 16 * 1024), type, declared ? { declared: body.length } : {});
        await expect(receiveMultipartPdf(request, blobs, 100_000)).rejects.toMatchObject({ code: "FILE_TOO_LARGE", status: 413 });
        expect(staged()).toEqual([]);
      });

      test(`${how}: no file part is 400 FILE_MISSING, garbage is 400 BAD_REQUEST`, async () => {
        const form = new FormData();
        form.append("other", "value");
        const response = new Response(form);
        const type = response.headers.get("content-type")!;
        const noFile = new Uint8Array(await response.arrayBuffer());
        await expect(receiveMultipartPdf(requestOf([noFile], type, declared ? { declared: noFile.length } : {}), blobs, 1_000_000)).rejects.toMatchObject({ code: "FILE_MISSING" });
        const garbage = randomBytes(5000);
        await expect(receiveMultipartPdf(requestOf([garbage], type, declared ? { declared: garbage.length } : {}), blobs, 1_000_000)).rejects.toMatchObject({ code: "BAD_REQUEST" });
        expect(staged()).toEqual([]);
      });
    }
  });
});

/** A body with a "file" part and a "notes" part (in that order, or notes first). */
async function withNotes(file: Uint8Array, notes: Uint8Array, notesFirst = false): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  const addNotes = () => form.append("notes", new Blob([notes as BlobPart]), "talk.pptx");
  if (notesFirst) addNotes();
  form.append("file", new Blob([file as BlobPart], { type: "application/pdf" }), "deck.pdf");
  if (!notesFirst) addNotes();
  const response = new Response(form);
  return { type: response.headers.get("content-type")!, body: new Uint8Array(await response.arrayBuffer()) };
}

describe("a notes part beside the PDF, whole or streamed", () => {
  const cases = [
    { name: "whole, notes last", file: 300_000, notes: 200_000, declared: true, notesFirst: false },
    { name: "whole, notes first", file: 300_000, notes: 200_000, declared: true, notesFirst: true },
    // More than the spool lets wait for the disk (1 MiB): the body's reader is held back.
    { name: "streamed, large notes first", file: 500_000, notes: 5_000_000, declared: false, notesFirst: true },
    { name: "streamed, notes last", file: 3_000_000, notes: 3_000_000, declared: false, notesFirst: false },
  ];
  for (const c of cases) {
    test(`${c.name}: each part in its own temp file, byte for byte; the PDF's digest is its own`, async () => {
      const file = randomBytes(c.file);
      const notes = randomBytes(c.notes);
      const { body, type } = await withNotes(file, notes, c.notesFirst);
      const upload = await receiveMultipartPdf(requestOf(chunksOf(body, 64 * 1024), type, c.declared ? { declared: body.length } : {}), blobs, 10 * 1024 * 1024, {
        notes: { maxBytes: 10 * 1024 * 1024 },
      });
      try {
        expect(upload.sha256).toBe(sha256(file));
        expect(readFileSync(upload.temp.path).equals(file)).toBe(true);
        expect(upload.notes?.bytes).toBe(notes.length);
        expect(upload.notes?.uploadName).toBe("talk.pptx");
        expect(readFileSync(upload.notes!.temp.path).equals(notes)).toBe(true);
        expect(staged()).toHaveLength(2);
      } finally {
        await upload.temp.discard();
        await upload.notes?.temp.discard();
      }
      expect(staged()).toEqual([]);
    });
  }

  test("without the notes option a notes part is read and ignored", async () => {
    const { body, type } = await withNotes(randomBytes(10_000), randomBytes(10_000));
    const upload = await receiveMultipartPdf(requestOf([body], type), blobs, 1_000_000);
    expect(upload.notes).toBeUndefined();
    expect(staged()).toHaveLength(1);
    await upload.temp.discard();
  });

  for (const declared of [true, false]) {
    const how = declared ? "whole" : "streamed";
    test(`${how}: a notes part over its limit is 413 NOTES_FILE_TOO_LARGE; a cut-off body 400; both temp files go`, async () => {
      const { body, type } = await withNotes(randomBytes(50_000), randomBytes(300_000), true);
      const options = { notes: { maxBytes: 100_000 } };
      await expect(receiveMultipartPdf(requestOf(chunksOf(body, 16 * 1024), type, declared ? { declared: body.length } : {}), blobs, 1_000_000, options)).rejects.toMatchObject({
        code: "NOTES_FILE_TOO_LARGE",
        status: 413,
      });
      expect(staged()).toEqual([]);
      const fits = await withNotes(randomBytes(50_000), randomBytes(60_000));
      const cut = fits.body.slice(0, fits.body.length - 20_000);
      await expect(receiveMultipartPdf(requestOf([cut], fits.type, declared ? { declared: fits.body.length } : {}), blobs, 1_000_000, options)).rejects.toMatchObject({ code: "BAD_REQUEST" });
      expect(staged()).toEqual([]);
    });
  }
});
