import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileWriter } from "../../src/upload/file-writer.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.4 s).
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "deckhand-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Chunks of varied sizes with recognisable bytes. */
function chunks(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new Uint8Array(1000 + ((i * 7919) % 70_000)).fill(i % 251));
}

async function writeAll(name: string, parts: Uint8Array[], underPressure: (i: number) => boolean): Promise<Buffer> {
  const path = join(dir, name);
  const fd = openSync(path, "wx");
  let i = 0;
  const writer = new FileWriter(fd, () => underPressure(i));
  for (const part of parts) {
    await writer.room(Math.min(part.length, 65_536));
    // Feed at most 64 KiB at a time, as the upload receiver does.
    for (let offset = 0; offset < part.length; offset += 65_536) writer.write(part.subarray(offset, offset + 65_536));
    i++;
  }
  await writer.drained();
  writer.release();
  closeSync(fd);
  expect(writer.failure).toBeNull();
  return readFileSync(path);
}

describe("FileWriter", () => {
  const parts = chunks(120);
  const expected = Buffer.concat(parts);

  test("synchronous writes: the file is the chunks in order", async () => {
    expect((await writeAll("sync.bin", parts, () => false)).equals(expected)).toBe(true);
  });

  test("writes on the I/O threads through reused blocks: the same file", async () => {
    expect((await writeAll("async.bin", parts, () => true)).equals(expected)).toBe(true);
  });

  test("both kinds interleaved (pressure comes and goes): every byte at its position", async () => {
    expect((await writeAll("mixed.bin", parts, (i) => Math.floor(i / 3) % 2 === 0)).equals(expected)).toBe(true);
  });

  test("however the two kinds alternate, at most four blocks are ever allocated (1 MiB per upload)", async () => {
    const path = join(dir, "bounded.bin");
    const fd = openSync(path, "wx");
    let feeds = 0;
    // Pressure flips on every feed: each flip to synchronous flushes a part-filled block.
    const writer = new FileWriter(fd, () => feeds % 2 === 0);
    const feed = new Uint8Array(40_000);
    const all: Uint8Array[] = [];
    for (let i = 0; i < 400; i++) {
      feed.fill(i % 251);
      await writer.room(feed.length);
      writer.write(feed);
      all.push(feed.slice());
      feeds++;
    }
    await writer.drained();
    closeSync(fd);
    expect(writer.failure).toBeNull();
    expect(writer.blocksAllocated).toBeLessThanOrEqual(4);
    expect(readFileSync(path).equals(Buffer.concat(all))).toBe(true);
  });

  test("settled: never past a byte that is not yet written, and all of them once drained", async () => {
    const path = join(dir, "settled.bin");
    const fd = openSync(path, "wx+");
    let feeds = 0;
    const writer = new FileWriter(fd, () => Math.floor(feeds / 5) % 2 === 1);
    const feed = new Uint8Array(50_000);
    const all: Uint8Array[] = [];
    let accepted = 0;
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) {
      feed.fill((i % 250) + 1);
      await writer.room(feed.length);
      writer.write(feed);
      all.push(feed.slice());
      accepted += feed.length;
      feeds++;
      const settled = writer.settled;
      seen.push(settled);
      expect(settled).toBeLessThanOrEqual(accepted);
      // Every settled byte is on file already, and is the byte written there.
      const onFile = readFileSync(path).subarray(0, settled);
      expect(onFile.equals(Buffer.concat(all).subarray(0, settled))).toBe(true);
    }
    // Synchronous writes settle at once; queued ones lag behind them.
    expect(seen[0]).toBe(50_000);
    expect(seen.some((settled, i) => settled < (i + 1) * 50_000)).toBe(true);
    await writer.drained();
    expect(writer.settled).toBe(accepted);
    closeSync(fd);
  });

  test("blocks released by one upload are reused by the next, with no stale bytes", async () => {
    const first = await writeAll("first.bin", chunks(40), () => true);
    expect(first.length).toBeGreaterThan(0);
    const path = join(dir, "second.bin");
    const fd = openSync(path, "wx");
    const writer = new FileWriter(fd, () => true);
    // Short writes into blocks that held the first upload's bytes.
    const parts = [new Uint8Array(10).fill(7), new Uint8Array(300_000).fill(9), new Uint8Array(5).fill(3)];
    for (const part of parts) {
      for (let offset = 0; offset < part.length; offset += 65_536) {
        const piece = part.subarray(offset, offset + 65_536);
        await writer.room(piece.length);
        writer.write(piece);
      }
    }
    await writer.drained();
    writer.release();
    closeSync(fd);
    expect(readFileSync(path).equals(Buffer.concat(parts))).toBe(true);
  });

  test("a write error is kept and later writes are skipped", async () => {
    const path = join(dir, "readonly.bin");
    closeSync(openSync(path, "w"));
    const fd = openSync(path, "r");
    const writer = new FileWriter(fd, () => false);
    writer.write(new Uint8Array(10));
    writer.write(new Uint8Array(10));
    await writer.drained();
    closeSync(fd);
    expect((writer.failure as { code?: string }).code).toBe("EBADF");
  });
});
