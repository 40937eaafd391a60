import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { digestAsWritten, digestBytes } from "../../src/upload/digest-thread.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (0.9 s).
setDefaultTimeout(10_000);

const dir = mkdtempSync(join(tmpdir(), "deckhand-digest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, Math.min(length, offset + 65_536)));
  return bytes;
}

/** Write `bytes` to a new file in pieces of `piece`, telling the job after each; its digest. */
async function writeAndHash(name: string, bytes: Uint8Array, piece: number): Promise<string> {
  const fd = openSync(join(dir, name), "wx+");
  try {
    const job = digestAsWritten(fd);
    for (let offset = 0; offset < bytes.length; offset += piece) {
      const end = Math.min(bytes.length, offset + piece);
      writeSync(fd, bytes, offset, end - offset, offset);
      job.advance(end);
      // Let the thread read while the writes go on, as an upload's body arrives (the writer's
      // pace, not a wait for the thread: the digest must be right whatever it has read by then).
      if ((offset / piece) % 8 === 0) await Bun.sleep(0);
    }
    return await job.finish(bytes.length);
  } finally {
    closeSync(fd);
  }
}

describe("SHA-256 on its own thread, read back behind the writer", () => {
  test("the digest of a file written in pieces is the file's SHA-256", async () => {
    const bytes = randomBytes(5 * 1024 * 1024 + 12_345);
    expect(await writeAndHash("pieces.bin", bytes, 64 * 1024)).toBe(sha256(bytes));
  });

  test("an empty file and a file never advanced hash correctly", async () => {
    expect(await writeAndHash("empty.bin", new Uint8Array(0), 1)).toBe(sha256(new Uint8Array(0)));
    const bytes = randomBytes(100_000);
    const fd = openSync(join(dir, "whole.bin"), "wx+");
    writeSync(fd, bytes);
    try {
      expect(await digestAsWritten(fd).finish(bytes.length)).toBe(sha256(bytes));
    } finally {
      closeSync(fd);
    }
  });

  test("many uploads at once each get their own digest", async () => {
    const files = Array.from({ length: 24 }, (_, i) => randomBytes(300_000 + i * 37_001));
    const digests = await Promise.all(files.map((bytes, i) => writeAndHash(`many-${i}.bin`, bytes, 16 * 1024 + i * 1000)));
    expect(digests).toEqual(files.map(sha256));
  });

  test("a dropped job is forgotten: the thread answers, and the next jobs are unaffected", async () => {
    const fd = openSync(join(dir, "dropped.bin"), "wx+");
    const bytes = randomBytes(2 * 1024 * 1024);
    writeSync(fd, bytes);
    const job = digestAsWritten(fd);
    job.advance(bytes.length);
    await job.drop();
    // After drop() the thread holds nothing of this descriptor: closing it now is safe.
    closeSync(fd);
    const next = randomBytes(700_000);
    expect(await writeAndHash("after-drop.bin", next, 100_000)).toBe(sha256(next));
  });

  test("a file shorter than claimed fails with a sentence, not a wrong digest", async () => {
    const fd = openSync(join(dir, "short.bin"), "wx+");
    writeSync(fd, randomBytes(1000));
    try {
      await expect(digestAsWritten(fd).finish(5000)).rejects.toThrow("the file ended at 1000 bytes, before the 5000 written");
    } finally {
      closeSync(fd);
    }
  });

  test("a descriptor that cannot be read fails the job (EBADF), and the thread lives on", async () => {
    const fd = openSync(join(dir, "write-only.bin"), "wx");
    writeSync(fd, randomBytes(1000));
    try {
      await expect(digestAsWritten(fd).finish(1000)).rejects.toThrow(/SHA-256 of the upload failed: .*EBADF/);
    } finally {
      closeSync(fd);
    }
    const bytes = randomBytes(50_000);
    expect(await writeAndHash("after-failure.bin", bytes, 4096)).toBe(sha256(bytes));
  });

  test("bytes lent whole: the digest of the slice, the buffer back intact, detached meanwhile; lends at once each right", async () => {
    const buffer = new ArrayBuffer(2 * 1024 * 1024);
    const whole = new Uint8Array(buffer);
    whole.set(randomBytes(whole.length));
    const kept = whole.slice();
    const slice = new Uint8Array(buffer, 12_345, 1_000_000);
    const lent = digestBytes(slice);
    expect(buffer.byteLength).toBe(0); // transferred, not copied
    const { sha256: digest, buffer: back } = await lent;
    expect(digest).toBe(sha256(kept.subarray(12_345, 12_345 + 1_000_000)));
    expect(back.byteLength).toBe(2 * 1024 * 1024);
    expect(new Uint8Array(back).every((byte, i) => byte === kept[i])).toBe(true);

    const many = Array.from({ length: 16 }, (_, i) => randomBytes(10_000 + i * 50_000));
    const answers = await Promise.all(many.map((bytes) => digestBytes(new Uint8Array(bytes.slice().buffer))));
    expect(answers.map((a) => a.sha256)).toEqual(many.map(sha256));
  });
});
